import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ReminderLine } from "../../src/server/console/overview/dashboard-rest";

const of = (reminded: number, confirmed: number, invited: number, joined: number) => ({
  confirm: { reminded, confirmed },
  invite: { reminded: invited, joined },
});

describe("the console's first page says what reminders won back", () => {
  it.each([
    ["nothing before the first reminder", of(0, 0, 0, 0), ""],
    [
      "reminders to confirm",
      of(8, 3, 0, 0),
      '<p class="note" id="reminders-outcome">Reminders: 3 people confirmed after a reminder, of 8 reminded (38%).</p>',
    ],
    [
      "both kinds, one person each",
      of(1, 1, 4, 1),
      '<p class="note" id="reminders-outcome">Reminders: 1 person confirmed after a reminder, of 1 reminded (100%); 1 person joined after a reminder of their invitation, of 4 reminded (25%).</p>',
    ],
    [
      "thousands, grouped",
      of(12_000, 0, 0, 0),
      '<p class="note" id="reminders-outcome">Reminders: 0 people confirmed after a reminder, of 12,000 reminded (0%).</p>',
    ],
  ])("%s", (_, reminders, expected) => {
    expect(renderToStaticMarkup(createElement(ReminderLine, { reminders }))).toBe(expected);
  });
});
