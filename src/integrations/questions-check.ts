/**
 * Checks src/content/questions.json as the build starts: a bad file stops the build with the question and the
 * problem named (questions-file.ts), before any page or function is built from it.
 */
import { readFileSync } from "node:fs";
import type { AstroIntegration } from "astro";
import { checkQuestions } from "../lib/waitlist/questions-file";

export function questionsCheck(file = "src/content/questions.json"): AstroIntegration {
  return {
    name: "questions-check",
    hooks: {
      "astro:config:setup": () => {
        let raw: unknown;
        try {
          raw = JSON.parse(readFileSync(file, "utf8"));
        } catch (error) {
          throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
        }
        checkQuestions(raw, file);
      },
    },
  };
}
