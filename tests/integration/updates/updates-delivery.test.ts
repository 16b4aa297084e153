/**
 * An update's send when things go wrong below the browser: cut off half-way and continued, "not now" for one
 * address or ten, a server that takes nothing, a refused account, a run taken over, a refused recipient. On PGlite,
 * PostgreSQL and Neon's HTTP protocol, with a real SMTP server (tests/support/updates-harness.ts).
 */
import { describe, expect, it } from "vitest";
import { backends } from "../../support/backends";
import { REFUSED, updatesGround } from "../../support/updates-harness";

describe.each(backends("updates_delivery"))("on %s", (_name, available, open) => {
  const { state, seed, seedSaidYes, updates, newDraft, send, received, throughSmtp } = updatesGround(available, open);

  describe.skipIf(!available)("a send cut off, and a refusal", () => {
    it("a send cut after two goes on where it stopped: nobody twice, nobody skipped", async () => {
      await seedSaidYes(["a", "b", "c", "d", "e"]);
      const id = await newDraft();
      expect(await send(id, { ms: 60_000, people: 2 })).toMatchObject({ sent: 2, remaining: 3 });
      expect((await updates().list(1))[0]).toMatchObject({ finished: false, remaining: 3, owner: "paused" });
      expect(await send(id, { ms: 60_000, people: 2 })).toMatchObject({ sent: 2, remaining: 1 });
      expect(await send(id)).toMatchObject({ sent: 1, remaining: 0 });
      expect(received()).toEqual(["a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com"]);
    });

    it("“not now” (451) for one address holds up nobody else: tried by the next run, failed at the third", async () => {
      // b's server always says "not now"; d's says it once.
      const asked = new Map<string, number>();
      const defer = (address: string) => {
        asked.set(address, (asked.get(address) ?? 0) + 1);
        return address === "b@example.com" || (address === "d@example.com" && asked.get(address) === 1);
      };
      await throughSmtp({ defer }, async (throttled) => {
        await seedSaidYes(["a", "b", "c", "d"]);
        const id = await newDraft();
        const run = { skipped: 0, stopped: null };
        expect(await send(id)).toEqual({ ...run, sent: 2, failed: 0, deferred: 2, remaining: 2 });
        expect(throttled.messages.map((m) => m.to)).toEqual(["a@example.com", "c@example.com"]);
        expect(await send(id)).toEqual({ ...run, sent: 1, failed: 0, deferred: 1, remaining: 1 });
        expect(await send(id)).toEqual({ ...run, sent: 0, failed: 1, deferred: 0, remaining: 0 });
        expect(throttled.messages.map((m) => m.to)).toEqual(["a@example.com", "c@example.com", "d@example.com"]);
        expect(asked.get("b@example.com")).toBe(3);
        const [row] = await state.store.db.query<{ state: string; error: string }>(
          "SELECT r.state, r.error FROM waitlist_update_recipient r JOIN waitlist w ON w.id = r.waitlist_id WHERE w.email = $1",
          ["b@example.com"],
        );
        expect(row).toEqual({ state: "failed", error: "Error EENVELOPE 451, 3 tries" });
        expect((await updates().list(1))[0]).toMatchObject({ sent: 3, failed: 1, finished: true });
      });
    });

    it("a server that takes nothing now (421) stops the run with everyone left queued, for the next", async () => {
      const closing = { on: true };
      await throughSmtp({ defer: (address) => closing.on && address === "b@example.com" && 421 }, async (throttled) => {
        await seedSaidYes(["a", "b", "c"]);
        const id = await newDraft();
        expect(await send(id)).toMatchObject({ sent: 1, deferred: 0, stopped: "Error ECONNECTION 421", remaining: 2 });
        closing.on = false;
        expect(await send(id)).toMatchObject({ sent: 2, failed: 0, stopped: null, remaining: 0 });
        expect(throttled.messages.map((m) => m.to)).toEqual(["a@example.com", "b@example.com", "c@example.com"]);
      });
    });

    it("a refusal of the account (554 at MAIL FROM) fails nobody: the run stops with everyone queued", async () => {
      const refusing = { on: true };
      await throughSmtp({ sender: () => (refusing.on ? 554 : undefined) }, async (server) => {
        await seedSaidYes(["a", "b", "c"]);
        const id = await newDraft();
        expect(await send(id)).toEqual({
          sent: 0,
          failed: 0,
          skipped: 0,
          deferred: 0,
          stopped: "Error EENVELOPE 554",
          remaining: 3,
        });
        refusing.on = false;
        expect(await send(id)).toMatchObject({ sent: 3, failed: 0, stopped: null, remaining: 0 });
        expect(server.messages.map((m) => m.to)).toEqual(["a@example.com", "b@example.com", "c@example.com"]);
      });
    });

    it("“not now” for ten addresses in a row is a throttle: the run stops, nobody failed", async () => {
      await throughSmtp({ defer: () => true }, async () => {
        const people = Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, "0")}`);
        await seedSaidYes(people);
        const id = await newDraft();
        expect(await send(id)).toMatchObject({
          sent: 0,
          failed: 0,
          deferred: 10,
          stopped: "Error EENVELOPE 451: 10 addresses in a row not taken now",
          remaining: 12,
        });
      });
    });

    it("a run whose update another run took over stops at once, sending nobody twice", async () => {
      // While b's RCPT TO is answered (550), another run takes the update: this run's records no longer hold.
      const takeOver = async (address: string) => {
        if (address === "b@example.com") {
          await state.store.db.query("UPDATE waitlist_update SET owner = 'cli:other', heartbeat_at = now()");
        }
      };
      await throughSmtp({ refuse: ["b@example.com"], onRecipient: takeOver }, async (server) => {
        await seedSaidYes(["a", "b", "c"]);
        const id = await newDraft();
        expect(await send(id)).toMatchObject({ sent: 1, failed: 0, remaining: 2 });
        expect(server.messages.map((m) => m.to)).toEqual(["a@example.com"]);
      });
    });

    it("a refused recipient is recorded and the others still get it", async () => {
      await seed([
        ["a@example.com", "confirmed", true],
        [REFUSED, "confirmed", true],
        ["z@example.com", "confirmed", true],
      ]);
      const id = await newDraft();
      expect(await send(id)).toEqual({ sent: 2, failed: 1, skipped: 0, deferred: 0, stopped: null, remaining: 0 });
      expect(received()).toEqual(["a@example.com", "z@example.com"]);
      const [row] = await state.store.db.query<{ state: string; error: string }>(
        "SELECT r.state, r.error FROM waitlist_update_recipient r JOIN waitlist w ON w.id = r.waitlist_id WHERE w.email = $1",
        [REFUSED],
      );
      expect(row?.state).toBe("failed");
      expect(row?.error).toMatch(/550/);
    });
  });
});
