/**
 * The audit log's sentences (src/server/audit/words.ts), action by action, as the console shows them: every action
 * the server, the People list and the CLI write, with the details each writes (a started action's merged into its
 * end's, as the log's view reads them), literally. And the log page itself: names looked up (an update's subject,
 * a wave's size), no id as its words, the record shown only for an action with no words of its own.
 */
import { describe, expect, it } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { type AuditNames, actorName, auditSentence } from "../../../src/server/audit/words";
import { call, h, openConsoleHarness, signInByLink } from "../../support/console-harness";

const NAMES: AuditNames = {
  updates: new Map([[7, { subject: "March news", sent: 200, failed: 1, finished: true }]]),
  waves: new Map([
    [3, { size: 40, invited: 40, finished: true }],
    [5, { size: 6, invited: 2, finished: false }],
  ]),
  events: new Map([["msg_0123", "waitlist.removed"]]),
};
const CLI_WAVE = { size: 40, invited: 38, refused: 2, resumed: 0, exit: 0 };
const STARTED = { state: "started, no end recorded" };

const CASES: Array<[action: string, details: Record<string, unknown>, sentence: string]> = [
  ["sign-in", { by: "link" }, "Signed in with a link sent by e-mail."],
  ["sign-in", { by: "token" }, "Signed in with the admin token."],
  ["sign-out", {}, "Signed out."],
  ["export", { via: "console", format: "csv", parts: 1, rows: 2 }, "Downloaded the list as CSV: 2 sign-ups in 1 part."],
  [
    "export",
    { via: "console", format: "json", parts: 0, rows: 0 },
    "Asked to download the list as JSON: it was empty.",
  ],
  [
    "export",
    { via: "http", format: "json", after: 0, to: 10, rows: 10, confirmedOnly: false },
    "The product downloaded 10 sign-ups through the export API (JSON).",
  ],
  [
    "export",
    { via: "cli", format: "csv", bytes: 100, confirmedOnly: true },
    "Downloaded the list as CSV from the command line (confirmed sign-ups only).",
  ],
  ["remove", { removed: true }, "Removed a person from the list, with everything they sent."],
  ["remove", { removed: false }, "Asked to remove an address that was not on the list: nothing was removed."],
  ["resend-confirmation", { person: 12 }, "Sent a pending person their confirmation e-mail again."],
  [
    "resend-invitation",
    { person: 12, outcome: "sent" },
    "Sent an invited person their invitation again, with a new code.",
  ],
  [
    "resend-invitation",
    { person: 12, outcome: "mailbox-limited" },
    "Tried to send an invited person their invitation again: not sent, their mailbox had had its e-mails for the day.",
  ],
  [
    "resend-invitation",
    { person: 12, outcome: "suppressed" },
    "Tried to send an invited person their invitation again: not sent, their address is suppressed.",
  ],
  ["resend-confirmation", { person: 12, outcome: "sent" }, "Sent a pending person their confirmation e-mail again."],
  [
    "resend-confirmation",
    { person: 12, outcome: "suppressed" },
    "Did not send a pending person their confirmation e-mail again: their address is suppressed.",
  ],
  [
    "resend-confirmation",
    { person: 12, outcome: "not-due" },
    "Did not send a pending person their confirmation e-mail again: one had gone out in the last 10 minutes.",
  ],
  [
    "resend-confirmation",
    { person: 12, outcome: "mailbox-limited" },
    "Did not send a pending person their confirmation e-mail again: their mailbox had had its e-mails for the day.",
  ],
  [
    "resend-confirmation",
    { person: 12, outcome: "failed" },
    "Tried to send a pending person their confirmation e-mail again: the SMTP server did not take it.",
  ],
  ["wave", { size: 1, person: 12, invited: 1 }, "Invited one person now, from their page."],
  [
    "wave",
    { size: 1, person: 12, invited: 0 },
    "Tried to invite one person now, from their page: they were not invited.",
  ],
  [
    "wave",
    { size: 40, wave: 3, invited: 0, note: "this confirmation's wave was already started" },
    "Confirmed the same wave twice: the second confirmation started nothing.",
  ],
  ["wave", { size: 40, wave: 3, reserved: 40, background: "started" }, "Invited 40 people in a wave."],
  [
    "wave",
    { size: 6, wave: 5, reserved: 6, background: "started" },
    "Started a wave inviting 6 people by e-mail: 2 invited so far.",
  ],
  [
    "wave",
    { size: 5, wave: 9, reserved: 0, background: "started" },
    "Asked for a wave of 5 people: nobody was waiting, so nobody was invited.",
  ],
  [
    "wave",
    { size: 2, wave: 4, invited: 2, refused: 0 },
    "Invited 2 people in a wave, as a file of invitation links (e-mail was off).",
  ],
  ["wave", CLI_WAVE, "Invited 38 people in a wave of 40 people from the command line; 2 e-mails were refused."],
  [
    "wave",
    { size: 40, ...STARTED },
    "Started a wave of 40 people: no end was recorded (it is still running, or it stopped half-way).",
  ],
  [
    "wave-file-again",
    { wave: 3, rows: 2 },
    "Downloaded the invitation file of a wave of 40 people again: 2 new links, and the earlier file's links stopped working.",
  ],
  [
    "wave-file-arrived",
    { wave: 3 },
    "Said the invitation file of a wave of 40 people arrived: the console no longer offers it.",
  ],
  [
    "update",
    { update: 7, subject: "March news", background: "started" },
    "Sent the update “March news” to 200 people; 1 e-mail failed.",
  ],
  ["update", { update: 8, subject: "April news", background: "started" }, "Started sending the update “April news”."],
  [
    "update",
    { subject: "April news", again: false, update: 8, sent: 10, failed: 0, remaining: 0, exit: 0 },
    "Sent the update “April news” from the command line, to 10 people.",
  ],
  [
    "update",
    { subject: "April news", again: true, update: 8, sent: 3, failed: 0, remaining: 0, exit: 0 },
    "Sent the update “April news” again from the command line, to 3 people who had not had it.",
  ],
  [
    "update",
    { subject: "April news", again: false, refused: "nobody would receive this update" },
    "Started sending the update “April news” from the command line. Refused: nobody would receive this update.",
  ],
  ["update-test", { subject: "March news", sent: true }, "Sent themselves a test of the update “March news”."],
  [
    "update-test",
    { subject: "March news", sent: false },
    "Sent themselves a test of the update “March news”: the SMTP server did not take it.",
  ],
  ["job-pause", { kind: "update", id: 7, done: true }, "Paused the update “March news”."],
  [
    "job-resume",
    { kind: "wave", id: 3, done: false },
    "Resumed a wave of 40 people: nothing changed (it had finished, or was not in that state).",
  ],
  [
    "job-cancel",
    { kind: "webhooks", id: 1, done: true },
    "Cancelled the rest of the delivery of waiting webhook events.",
  ],
  ["webhook-retry", { event: "msg_0123", queued: true }, "Retried the webhook event of a removal now."],
  [
    "webhook-retry",
    { event: "msg_9999", queued: false },
    "Asked to retry a webhook event: it was delivered already or no longer exists, so nothing was sent.",
  ],
  ["webhook-test", { event: "msg_0124" }, "Sent a test webhook event."],
  ["webhooks-resume", {}, "Resumed webhook deliveries."],
  ["webhooks-drain", { drain: 2, waiting: 5 }, "Started delivering every waiting webhook event now (5 events)."],
  ["webhooks-off", { exit: 0 }, "Stopped recording webhook events, from the command line."],
  [
    "webhooks-deliver",
    { delivered: 3, retrying: 1, exit: 1 },
    "Delivered 3 waiting webhook events from the command line; 1 is to be tried again (it ended with a problem: see the command's output).",
  ],
  ["mail.lifted", { person: 12 }, "Lifted a person's mail suppression: the product's e-mails reach them again."],
  ["mail.suppressed", { person: 12, reason: "operator" }, "Stopped all mail to a person."],
  [
    "mail.suppressed",
    { reason: "hard_bounce", mailbox: "abcdefghijkl", update: null },
    "Stopped all mail to an address: their server refused it for good (a hard bounce).",
  ],
  [
    "mail.suppressed",
    { reason: "complaint", mailbox: "abcdefghijkl", update: 7 },
    "Stopped all mail to an address: an e-mail was marked as spam (a complaint), after the update “March news”.",
  ],
  ["updates.consent_withdrawn", { people: 1 }, "Stopped updates for 1 person after their spam complaint."],
  [
    "updates.paused",
    { update: 7, why: "Paused by itself: 1 complaint, 0.5 % of 200 sent, past 0.3 %." },
    "Paused the update “March news” by itself: 1 complaint, 0.5 % of 200 sent, past 0.3 %.",
  ],
  ["invite.redeem", { outcome: "joined" }, "A person joined the product with their invitation code."],
  ["invite.redeem", { outcome: "expired" }, "An expired invitation code was tried: refused."],
  ["reminders", { sent: 3, invites: 1 }, "Sent 3 reminders to confirm and 1 reminder of an invitation."],
  [
    "encrypt",
    { key: "k1", exit: 0 },
    "Sealed the list's personal data with the data key (DATA_KEY), from the command line.",
  ],
  [
    "purge-pending",
    { olderThanHours: 48, purged: 5, exit: 0 },
    "Deleted 5 pending sign-ups older than 48 hours, from the command line.",
  ],
  [
    "purge-pending",
    { purged: 1, olderThanHours: 336 },
    "Deleted 1 pending sign-up older than 336 hours, as PURGE_PENDING_AFTER_DAYS asks.",
  ],
  ["remove-selected", { selected: 3, removed: 3 }, "Removed the 3 people selected from the list."],
  [
    "remove-selected",
    { selected: 3, removed: 2 },
    "Removed 2 people of 3 people selected from the list; the rest had left already.",
  ],
  [
    "invite-selected",
    { selected: 4, invitable: 3, wave: 11, invited: 3, refused: 0 },
    "Invited 3 people of 4 people selected; 1 was not waiting.",
  ],
  [
    "invite-selected",
    { selected: 2, invitable: 2, wave: 11, invited: 2, refused: 0 },
    "Invited the 2 people selected.",
  ],
  [
    "invite-selected",
    { selected: 6, invitable: 6, wave: 5, invited: 0, refused: 0, background: "started" },
    "Started inviting 6 people of 6 people selected, by e-mail: 2 invited so far.",
  ],
  [
    "remove",
    STARTED,
    "Started removing a person from the list: no end was recorded (it is still running, or it stopped half-way).",
  ],
  ["people-frobnicate", {}, "Did “people frobnicate”."],
];

describe("each audit action as a sentence", () => {
  it.each(CASES)("%s %j", (action, details, sentence) => {
    expect(auditSentence(action, details, NAMES)).toBe(sentence);
  });

  it("names who acted in words", () => {
    const actors = ["ops@noosphere.test", "token", "redeem-token", "CLI", "scheduled", "mail-events", "ses"];
    expect(actors.map((actor) => actorName(actor, "export"))).toEqual([
      "ops@noosphere.test",
      "The admin token",
      "The product's redemption token",
      "The command line",
      "A scheduled run",
      "Mail events",
      "Amazon SES",
    ]);
    // Redemptions recorded before the redemption token had a name of its own were the redemption token's.
    expect(actorName("token", "invite.redeem")).toBe("The product's redemption token");
    expect(actorName("redeem-token", "invite.redeem")).toBe("The product's redemption token");
    expect(actorName("token", "sign-in")).toBe("The admin token");
  });
});

describe("the audit log page", () => {
  openConsoleHarness();

  it("reads the names its entries need, and shows sentences with the record one click away", async () => {
    await h.store.db.query("DELETE FROM waitlist_update");
    const [update] = await h.store.db.query<{ id: number }>(
      "INSERT INTO waitlist_update (subject, body, author, sent, finished_at) VALUES ('Spring news', 'Hi.', 'CLI', 12, now()) RETURNING id",
    );
    const [wave] = await h.store.db.query<{ id: number }>(
      "INSERT INTO waitlist_invite_wave (owner, size, invited, finished_at) VALUES ('test', 40, 40, now()) RETURNING id",
    );
    const cookie = await signInByLink();
    const log = createAuditLog(h.store.db);
    const sent = await log.append("ops@noosphere.test", "update", {
      phase: "started",
      update: update?.id,
      subject: "Spring news",
    });
    await log.append("ops@noosphere.test", "update", {
      phase: "ended",
      started: sent,
      update: update?.id,
      background: "started",
    });
    await log.append("ops@noosphere.test", "webhooks-resume", {});
    await log.append("CLI", "frobnicate", { rows: 3 });
    const started = await log.append("ops@noosphere.test", "wave", { phase: "started", size: 40 });
    await log.append("ops@noosphere.test", "wave", {
      phase: "ended",
      started,
      size: 40,
      wave: wave?.id,
      reserved: 40,
      background: "started",
    });

    const html = await (await call("/admin/audit", { cookie })).text();
    const rows = [...html.matchAll(/<tr><td data-label="When \(UTC\)">[^<]+<\/td>([\s\S]*?)<\/tr>/g)].slice(0, 4);
    const read = (row: string) =>
      row
        .replace(/<details[\s\S]*<\/details>/, "")
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim();
    expect(rows.map((m) => read(m[1] ?? ""))).toEqual([
      "ops@noosphere.test Invited 40 people in a wave. Who it invited",
      "The command line Did “frobnicate”.",
      "ops@noosphere.test Resumed webhook deliveries.",
      "ops@noosphere.test Sent the update “Spring news” to 12 people.",
    ]);
    expect(rows[0]?.[1]).toContain(`<a href="/admin/people?wave=${wave?.id}">Who it invited</a>`);
    // An action with no words of its own shows its record; the others say all they hold, with no id.
    expect(rows[1]?.[1]).toContain(
      '<details class="raw"><summary>As recorded</summary><code>frobnicate {&quot;rows&quot;:3}</code></details>',
    );
    expect(rows.filter((m) => (m[1] ?? "").includes("<details"))).toHaveLength(1);
    expect(html).not.toContain(`update&quot;:${update?.id}`);
  });
});
