/**
 * A person's timeline is whole and says what their webhooks said (issue 42: a referrer's page once showed 3
 * "referral counted" while their webhooks showed 4 referred and 1 revoked: the referral taken back left no trace).
 * With webhooks on, a referrer's life on the list is made through the triggers that write both: sign-up,
 * confirmation, four referrals counted and one taken back (the person it brought removed), updates stopped,
 * a reminder, invited, joined, their address suppressed. The page's timeline and the webhook outbox are read back
 * literally, step for event.
 */
import { expect, it } from "vitest";
import type { RootKey } from "../../../src/server/crypto/secret";
import { addressKey, mailboxKey } from "../../../src/server/mail/mailbox";
import { UNSUBSCRIBE_PAGE_WORDS } from "../../../src/server/updates/handler";
import { call, h, openConsoleHarness, signInByLink } from "../../support/console-harness";
import { readText, sectionText } from "../../support/console-reading";

openConsoleHarness();

it("the timeline lists every referral counted and taken back, as the webhooks did, and the rest of a life", async () => {
  const db = h.store.db;
  await db.query("DELETE FROM waitlist");
  await db.query("DELETE FROM waitlist_webhook_event");
  await db.query("UPDATE waitlist_webhook_state SET enabled = true, paused_at = NULL");
  try {
    const root = (await h.store.secret()) as RootKey;
    const [ada] = await db.query<{ id: number }>(
      `INSERT INTO waitlist (email, status, created_at, mailbox_key, address_key, updates_consent, updates_consent_at)
       VALUES ('ada@example.com', 'pending', '2026-03-01T10:00:00Z', $1, $2, true, '2026-03-01T10:06:00Z') RETURNING id`,
      [mailboxKey(root, "ada@example.com"), addressKey(root, "ada@example.com")],
    );
    const id = Number(ada?.id);
    await db.query("UPDATE waitlist SET status = 'confirmed', confirmed_at = '2026-03-01T10:05:00Z' WHERE id = $1", [
      id,
    ]);
    // Four people come by her share link and confirm: each referral counts (the trigger's waitlist.referred).
    for (const n of [1, 2, 3, 4]) {
      const [p] = await db.query<{ id: number }>(
        "INSERT INTO waitlist (email, status, created_at) VALUES ($1, 'confirmed', $2) RETURNING id",
        [`p${n}@example.com`, `2026-03-02T0${n}:00:00Z`],
      );
      await db.query("INSERT INTO waitlist_referral (referred_id, referrer_id) VALUES ($1, $2)", [p?.id, id]);
      await db.query("UPDATE waitlist_referral SET outcome = 'counted', counted_at = $2 WHERE referred_id = $1", [
        p?.id,
        `2026-03-02T0${n}:05:00Z`,
      ]);
      await db.query("UPDATE waitlist SET referrals = referrals + 1 WHERE id = $1", [id]);
    }
    // She stops updates from an update's unsubscribe page (waitlist.unsubscribed).
    await db.query(
      "UPDATE waitlist SET updates_consent = false, updates_consent_at = '2026-03-03T08:00:00Z', updates_consent_words = $2 WHERE id = $1",
      [id, UNSUBSCRIBE_PAGE_WORDS],
    );
    // The second person she brought leaves: the referral is taken back (waitlist.referral_revoked).
    expect(await h.store.erase("p2@example.com")).toBe(true);
    await db.query("UPDATE waitlist_referral_revoked SET revoked_at = '2026-03-04T12:00:00Z' WHERE referrer_id = $1", [
      id,
    ]);
    await db.query(
      "INSERT INTO mail_reminder (waitlist_id, kind, sent_at) VALUES ($1, 'invite', '2026-03-06T09:00:00Z')",
      [id],
    );
    await db.query("UPDATE waitlist SET status = 'invited', invited_at = '2026-03-05T09:00:00Z' WHERE id = $1", [id]);
    await db.query("UPDATE waitlist SET status = 'joined', joined_at = '2026-03-07T09:00:00Z' WHERE id = $1", [id]);
    await db.query(
      `INSERT INTO mail_suppression (address_key, reason, evidence, source, suppressed_at)
       VALUES ($1, 'complaint', 'ses: Complaint abuse', 'ses', '2026-03-08T09:00:00Z')`,
      [addressKey(root, "ada@example.com")],
    );

    const events = await db.query<{ type: string }>(
      "SELECT type FROM waitlist_webhook_event WHERE waitlist_id = $1 ORDER BY occurred_at, id",
      [id],
    );
    expect(events.map((e) => e.type)).toEqual([
      "waitlist.signed_up",
      "waitlist.confirmed",
      "waitlist.referred",
      "waitlist.referred",
      "waitlist.referred",
      "waitlist.referred",
      "waitlist.unsubscribed",
      "waitlist.referral_revoked",
      "waitlist.invited",
      "waitlist.joined",
      "waitlist.suppressed",
    ]);

    const cookie = await signInByLink();
    const html = await (await call(`/admin/person?id=${id}`, { cookie })).text();
    const steps = [...html.matchAll(/<li><time dateTime="[^"]+">([^<]+)<\/time>([\s\S]*?)<\/li>/g)].map(
      (m) => `${m[1]} ${readText(m[2] ?? "")}`,
    );
    expect(steps).toEqual([
      "2026-03-01 10:00 Signed up",
      "2026-03-01 10:05 Confirmed their address",
      "2026-03-02 01:05 A referral of theirs counted: p1@example.com confirmed",
      "2026-03-02 02:05 A referral of theirs counted (that person has since left)",
      "2026-03-02 03:05 A referral of theirs counted: p3@example.com confirmed",
      "2026-03-02 04:05 A referral of theirs counted: p4@example.com confirmed",
      "2026-03-03 08:00 Said no to updates, from an update's unsubscribe page",
      "2026-03-04 12:00 A referral of theirs was taken back: the person they brought left the list",
      "2026-03-05 09:00 Invited",
      "2026-03-06 09:00 Reminded of their invitation",
      "2026-03-07 09:00 Joined the product",
      "2026-03-08 09:00 Mail to them stopped: they marked an e-mail as spam (a complaint)",
    ]);
    // Step for event: as many referrals counted as waitlist.referred, as many taken back as waitlist.referral_revoked.
    const count = (list: string[], part: string) => list.filter((s) => s.includes(part)).length;
    const types = events.map((e) => e.type);
    expect(count(steps, "A referral of theirs counted")).toBe(count(types, "waitlist.referred"));
    expect(count(steps, "was taken back")).toBe(count(types, "waitlist.referral_revoked"));
    expect(sectionText(html, "share")).toContain("Referrals 3 count now; 1 was taken back");
    // The webhook events beside it, in the same words, newest first.
    const hooks = [...html.matchAll(/<td data-label="Event">([\s\S]*?)<\/td>/g)].map((m) => readText(m[1] ?? ""));
    expect(hooks).toEqual([
      "Mail stopped waitlist.suppressed",
      "Joined waitlist.joined",
      "Invited waitlist.invited",
      "A referral taken back waitlist.referral_revoked",
      "Stopped updates waitlist.unsubscribed",
      "A referral counted waitlist.referred",
      "A referral counted waitlist.referred",
      "A referral counted waitlist.referred",
      "A referral counted waitlist.referred",
      "Confirmed waitlist.confirmed",
      "Signed up waitlist.signed_up",
    ]);
  } finally {
    await db.query("UPDATE waitlist_webhook_state SET enabled = false");
    await db.query("DELETE FROM waitlist_webhook_event");
  }
});

it("a referrer who leaves takes their record of referrals taken back with them", async () => {
  const db = h.store.db;
  await db.query("DELETE FROM waitlist");
  const [ada] = await db.query<{ id: number }>(
    "INSERT INTO waitlist (email, status, referrals) VALUES ('ada@example.com', 'confirmed', 1) RETURNING id",
  );
  const [cy] = await db.query<{ id: number }>(
    "INSERT INTO waitlist (email, status) VALUES ('cy@example.com', 'confirmed') RETURNING id",
  );
  await db.query(
    "INSERT INTO waitlist_referral (referred_id, referrer_id, outcome, counted_at) VALUES ($1, $2, 'counted', now())",
    [cy?.id, ada?.id],
  );
  await h.store.erase("cy@example.com");
  const kept = async () =>
    (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM waitlist_referral_revoked"))[0]?.n;
  expect(await kept()).toBe(1);
  expect((await db.query<{ referrals: number }>("SELECT referrals FROM waitlist"))[0]?.referrals).toBe(0);
  await h.store.erase("ada@example.com");
  expect(await kept()).toBe(0);
});
