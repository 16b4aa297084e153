/**
 * The CLI's progress (scripts/lib/progress.ts): plain lines at each tenth when standard error is not a terminal,
 * the last always; a bar redrawn in place on a terminal.
 */
import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { progressBar } from "../../scripts/lib/progress";

function stream(isTTY: boolean) {
  const out = new PassThrough() as PassThrough & NodeJS.WriteStream;
  let text = "";
  out.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  Object.assign(out, { isTTY, columns: 100, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { out, text: () => text };
}

it("writes plain lines at each tenth, and the last, when not on a terminal", () => {
  const { out, text } = stream(false);
  const bar = progressBar("Sending", out);
  for (let done = 1; done <= 25; done++) bar.update(done, 25);
  bar.stop();
  expect(text().split("\n").filter(Boolean)).toEqual([
    "Sending: 3 of 25 (12%)",
    "Sending: 5 of 25 (20%)",
    "Sending: 8 of 25 (32%)",
    "Sending: 10 of 25 (40%)",
    "Sending: 13 of 25 (52%)",
    "Sending: 15 of 25 (60%)",
    "Sending: 18 of 25 (72%)",
    "Sending: 20 of 25 (80%)",
    "Sending: 23 of 25 (92%)",
    "Sending: 25 of 25 (100%)",
  ]);
});

it("draws a bar with the counts on a terminal", () => {
  const { out, text } = stream(true);
  const bar = progressBar("Inviting", out);
  bar.update(5, 10);
  bar.update(10, 10);
  bar.stop();
  expect(text()).toContain("Inviting [");
  expect(text()).toContain("] 10/10 · 100%");
});
