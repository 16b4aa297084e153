/**
 * Vitest setup file (vitest.config.ts): with `isolate: false` a worker runs file after file in one process, so
 * whatever a file leaves in the process is undone after it, as releaseEmbeddedStore undoes useEmbeddedStore:
 * the process's store closed (the next file's first getStore opens its own), stubbed environment variables
 * restored, the cached config dropped.
 */
import { afterAll } from "vitest";
import { releaseEmbeddedStore } from "./helpers";

afterAll(releaseEmbeddedStore);
