/** The resolve hook questions-hook.mjs registers: src/content/questions.json is TEST_QUESTIONS_FILE. */
import { pathToFileURL } from "node:url";

export async function resolve(specifier, context, next) {
  const file = process.env.TEST_QUESTIONS_FILE;
  if (file && specifier.endsWith("content/questions.json")) {
    const resolved = await next(specifier, context);
    return { ...resolved, url: pathToFileURL(file).href, shortCircuit: true };
  }
  return next(specifier, context);
}
