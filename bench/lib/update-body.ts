/**
 * The update the benchmarks send (bench/updates.ts, bench/background.ts): a realistic month's letter with a
 * link, so each message is as long as a real one. `opening`: words put first, so each of several updates has its
 * own text (an update's words are the update: the same words again would reach nobody).
 */
export function updateBody(opening = ""): string {
  const lines = [
    "Hello,",
    "",
    "Thank you for waiting with us. This month we finished the first version of the reader: highlights, notes and",
    "the daily review, all of it offline first. The first invitations go out in waves over the next weeks, in the",
    "order people joined the list.",
    "",
    "What changed since the last update:",
    "- search across everything you saved, in under a second on a phone;",
    "- import from the three tools most of you named when you signed up;",
    "- an export of everything, any time, as plain files.",
    "",
    "The notes from this month's design review are here: https://noosphere.app/product",
    "",
    "Until next month,",
    "The Noosphere team",
  ];
  if (opening) lines[2] = `${opening} ${lines[2]}`;
  return lines.join("\n");
}
