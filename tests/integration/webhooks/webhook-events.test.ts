/**
 * The webhook events' types and snapshot keys (src/server/webhooks/events.ts) held equal to what the database's
 * triggers write: every change a person's life on the list can make, made on PGlite and on PostgreSQL, and the
 * outbox read back; and the triggers' text in the migrations read for any type or key they could write beyond those.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SNAPSHOT_KEYS, WEBHOOK_EVENT_TYPES } from "../../../src/server/webhooks";
import { backends, type OpenedStore } from "../../support/backends";

const MIGRATIONS = join(import.meta.dirname, "../../../netlify/database/migrations");
const migrations = readdirSync(MIGRATIONS)
  .filter((name) => name.endsWith(".sql"))
  .sort()
  .map((name) => readFileSync(join(MIGRATIONS, name), "utf8"))
  .join("\n");

/** The last definition of SQL function `name` in the migrations, as the database holds it after all of them. */
function lastDefinition(name: string): string {
  const all = [...migrations.matchAll(new RegExp(`CREATE OR REPLACE FUNCTION ${name}\\([\\s\\S]*?\\$fn\\$\\s*;`, "g"))];
  return all.at(-1)?.[0] ?? "";
}

describe("the triggers' text in the migrations", () => {
  it("writes no event type that events.ts does not name", () => {
    const triggers = [
      "waitlist_webhook_trigger",
      "waitlist_webhook_referral_trigger",
      "mail_suppression_webhook_trigger",
    ]
      .map(lastDefinition)
      .join("\n");
    expect(triggers).not.toBe("\n");
    const literal = [...triggers.matchAll(/'(waitlist\.[a-z_]+)'/g)].map((match) => match[1]);
    // 'waitlist.' || a.status, for the statuses the trigger lists.
    const byStatus = [
      ...triggers.matchAll(/'waitlist\.' \|\| (\w+)\.status[\s\S]*?\1\.status IN \(([^)]*)\)/g),
    ].flatMap((match) => [...(match[2] ?? "").matchAll(/'([a-z_]+)'/g)].map((status) => `waitlist.${status[1]}`));
    expect(byStatus).toEqual(["waitlist.confirmed", "waitlist.invited", "waitlist.joined"]);
    expect(new Set([...literal, ...byStatus])).toEqual(new Set(WEBHOOK_EVENT_TYPES));
  });

  it("snapshots the person with exactly SNAPSHOT_KEYS, in order", () => {
    const person = lastDefinition("waitlist_webhook_person");
    const keys = [...(/jsonb_build_object\(([\s\S]*?)\)\s*\$fn\$/.exec(person)?.[1] ?? "").matchAll(/'([a-z_]+)',/g)];
    expect(keys.map((match) => match[1])).toEqual([...SNAPSHOT_KEYS]);
  });
});

describe.each(backends("webhook_events"))("on %s", (_name, available, open) => {
  let opened: OpenedStore | undefined;
  beforeAll(async () => {
    if (available) opened = await open();
  }, 60_000);
  afterAll(() => opened?.close());

  it.skipIf(!available)("a person's whole life on the list writes each type once, each snapshot whole", async () => {
    const db = (opened as OpenedStore).store.db;
    await db.query("UPDATE waitlist_webhook_state SET enabled = true");
    const [ann] = await db.query<{ id: number }>(
      "INSERT INTO waitlist (email, status, referral_code) VALUES ('ann@example.com', 'confirmed', 'ann2345678') RETURNING id",
    );
    const [bo] = await db.query<{ id: number }>(
      "INSERT INTO waitlist (email, status, updates_consent) VALUES ('bo@example.com', 'pending', true) RETURNING id",
    );
    await db.query(`INSERT INTO waitlist_referral (referred_id, referrer_id, mailbox_key) VALUES ($1, $2, 'bo')`, [
      bo?.id,
      ann?.id,
    ]);
    await db.query("UPDATE waitlist SET status = 'confirmed', confirmed_at = now() WHERE id = $1", [bo?.id]);
    await db.query("UPDATE waitlist_referral SET outcome = 'counted', counted_at = now() WHERE referred_id = $1", [
      bo?.id,
    ]);
    await db.query("UPDATE waitlist SET updates_consent = false WHERE id = $1", [bo?.id]);
    // Their address suppressed (migrations 0016, 0021: keyed on the exact address): the list's own trigger.
    await db.query("UPDATE waitlist SET mailbox_key = 'bo-mailbox', address_key = 'bo-address' WHERE id = $1", [
      bo?.id,
    ]);
    await db.query(
      "INSERT INTO mail_suppression (address_key, reason, evidence, source) VALUES ('bo-address', 'complaint', 'x', 'ses')",
    );
    await db.query("UPDATE waitlist SET status = 'invited', invited_at = now() WHERE id = $1", [bo?.id]);
    await db.query("UPDATE waitlist SET status = 'joined', joined_at = now() WHERE id = $1", [bo?.id]);
    await db.query("DELETE FROM waitlist WHERE id = $1", [bo?.id]);

    const events = await db.query<{ type: string; waitlist_id: number; keys: string[]; referred: string[] | null }>(
      `SELECT type, waitlist_id, ARRAY(SELECT jsonb_object_keys(person) ORDER BY 1) AS keys,
         CASE WHEN person ? 'referred' THEN ARRAY(SELECT jsonb_object_keys(person->'referred') ORDER BY 1) END AS referred
       FROM waitlist_webhook_event ORDER BY occurred_at, id`,
    );
    const types = events.map((event) => event.type);
    expect(types).toEqual([
      "waitlist.signed_up",
      "waitlist.signed_up",
      "waitlist.confirmed",
      "waitlist.referred",
      "waitlist.unsubscribed",
      "waitlist.suppressed",
      "waitlist.invited",
      "waitlist.joined",
      // The removal's own event first, then its cascade's (the referral row goes with the person).
      "waitlist.removed",
      "waitlist.referral_revoked",
    ]);
    expect(new Set(types)).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    const snapshot = [...SNAPSHOT_KEYS].sort();
    for (const event of events) {
      const extra = { "waitlist.referred": ["referred"], "waitlist.suppressed": ["suppression"] }[event.type] ?? [];
      expect(event.keys).toEqual([...snapshot, ...extra].sort());
      expect(event.referred).toEqual(event.type === "waitlist.referred" ? snapshot : null);
    }
  });
});
