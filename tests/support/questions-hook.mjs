/**
 * `node --import ./tests/support/questions-hook.mjs`: a child process (the CLI, in the slow tests) reads the
 * questions of TEST_QUESTIONS_FILE instead of src/content/questions.json, as a deploy whose team edited that file
 * would: the one file a new question touches, swapped, nothing else.
 */
import { register } from "node:module";

if (process.env.TEST_QUESTIONS_FILE) register("./questions-resolve.mjs", import.meta.url);
