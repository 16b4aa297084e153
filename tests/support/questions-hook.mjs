/**
 * `node --import tests/support/questions-hook.mjs` (a path from the repository root): a child process (the CLI, in the slow tests) reads the
 * questions of TEST_QUESTIONS_FILE instead of src/content/questions.json, as a deploy whose team edited that file
 * would: the one file a new question touches, swapped, nothing else.
 */
import { registerHooks } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.env.TEST_QUESTIONS_FILE;
if (file) {
  registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      return specifier.endsWith("content/questions.json") ? { ...resolved, url: pathToFileURL(file).href } : resolved;
    },
  });
}
