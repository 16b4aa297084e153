/**
 * A value that cannot be read (issue 53, item 5: `RATE_LIMIT_MAX=ten`) is never taken as its default: every function
 * answers 500 with one log line naming the variable, the value's problem and what it accepts, before it opens the
 * database. Every module in netlify/functions/.
 */
import { expect, it } from "vitest";
import { callWithEnv, FUNCTIONS, restoreAfterEach } from "../../support/function-refusal";

restoreAfterEach();

it.each(FUNCTIONS)("%s answers 500 with one line naming RATE_LIMIT_MAX", async (file) => {
  const { response, lines, openedDatabase } = await callWithEnv(file, { RATE_LIMIT_MAX: "ten" });
  expect(response.status).toBe(500);
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
    level: "error",
    event: "config.unusable",
    problem: 'RATE_LIMIT_MAX is "ten", which cannot be read: it accepts a whole number from 1 up (unset: 10).',
  });
  expect(openedDatabase).toBe(false);
});
