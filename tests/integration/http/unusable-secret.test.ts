/**
 * A server secret that cannot be used (issue 53, item 2) stops every function: each answers 500 with one log line
 * naming the variable, before it opens the database or does anything else. Every module in netlify/functions/.
 */
import { expect, it } from "vitest";
import { callWithEnv, FUNCTIONS, restoreAfterEach } from "../../support/function-refusal";

const LINE =
  "SERVER_SECRET holds 5 bytes; it must hold at least 32 random bytes (64 hex digits or 44 base64 characters): make one with `openssl rand -base64 32`.";

restoreAfterEach();

it("covers the 19 functions", () => {
  expect(FUNCTIONS).toHaveLength(19);
});

it.each(FUNCTIONS)("%s answers 500 with one line naming SERVER_SECRET", async (file) => {
  const { response, lines, openedDatabase } = await callWithEnv(file, { SERVER_SECRET: "letmein" });
  expect(response.status).toBe(500);
  expect(await response.text()).toBe("This site is misconfigured: its operator has been told what to fix.\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ level: "error", event: "config.unusable", problem: LINE });
  expect(openedDatabase).toBe(false);
});
