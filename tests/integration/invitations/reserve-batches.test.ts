/**
 * A wave of chosen people, however many (the console's "Invite everyone matching" may name 100,000 and more):
 * reserved RESERVE_BATCH at a time, each statement short enough for DB_TIMEOUT_MS on a long list, and every one of
 * them held, nobody else.
 */
import { describe, expect, it } from "vitest";
import { RESERVE_BATCH } from "../../../src/server/invitations/invite-store";
import { backends, useBackend } from "../../support/backends";

describe.each(backends("reserve_batches"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);

  it.runIf(available)("reserves more people than one batch: each of them, once", async () => {
    const store = backend.store;
    const people = 2 * RESERVE_BATCH + 1;
    // The chosen confirmed people, then one pending person among the ids (never reserved) and one confirmed left out.
    await store.db.query(
      `INSERT INTO waitlist (email, status) SELECT 'person' || g || '@example.com', 'confirmed'
       FROM generate_series(1, $1::int) AS g`,
      [people + 1],
    );
    await store.db.query("INSERT INTO waitlist (email, status) VALUES ('pending@example.com', 'pending')");
    const ids = (
      await store.db.query<{ id: string }>("SELECT id FROM waitlist WHERE email <> $1 ORDER BY id", [
        `person${people + 1}@example.com`,
      ])
    ).map((row) => Number(row.id));
    expect(ids).toHaveLength(people + 1);
    const wave = await store.invites.startWave("test-owner", people);
    expect(await store.invites.reserveIds(wave, ids)).toBe(people);
    const held = await store.db.query<{ status: string; n: number }>(
      "SELECT status, count(*)::int AS n FROM waitlist WHERE invite_wave_id = $1 GROUP BY status",
      [wave],
    );
    expect(held).toEqual([{ status: "confirmed", n: 4001 }]);
    // A second reservation of the same people finds nobody free.
    expect(await store.invites.reserveIds(wave, ids)).toBe(0);
  });
});
