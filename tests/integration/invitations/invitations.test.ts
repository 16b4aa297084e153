/**
 * Letting people in, below the CLI: waves of invitations (src/server/invitations/wave.ts) mailed through a real SMTP
 * server on 127.0.0.1, on an embedded Postgres and (when 127.0.0.1:5432 answers) PostgreSQL directly and through
 * Neon's HTTP protocol. Redemption, the purge and attribution: invitations-redeem.test.ts. The CLI's own run, and a
 * wave killed for real, are in tests/slow/invitations-cli.test.ts.
 */
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/server/app/store";
import { continueWave, earlyAccessBase, previewWave, runWave, type WaveOptions } from "../../../src/server/invitations";
import { createSmtpMailer, type Mailer } from "../../../src/server/mail/mailer";
import { backends } from "../../support/backends";
import { ACCESS, inviteGround, MAIL_FROM, ORIGIN } from "../../support/invitations-harness";
import { startSmtp } from "../../support/smtp";

describe.each(backends("invite"))("on %s", (_name, available, open) => {
  const { g, seed, statuses, wave, codeOf, redeem } = inviteGround(available, open);

  it.runIf(available)("a wave invites exactly the N oldest confirmed sign-ups, one e-mail each", async () => {
    await seed(
      ["invited@example.com", "invited"],
      ["pending@example.com", "pending"],
      ["first@example.com", "confirmed"],
      ["second@example.com", "confirmed"],
      ["third@example.com", "confirmed"],
    );
    expect(await wave(2)).toEqual({ resumed: false, invited: 2, refused: 0, stopped: null, paused: null });
    expect(await statuses()).toEqual({
      "invited@example.com": "invited",
      "pending@example.com": "pending",
      "first@example.com": "invited",
      "second@example.com": "invited",
      "third@example.com": "confirmed",
    });
    expect(g.smtp.messages.map((m) => m.to).sort()).toEqual(["first@example.com", "second@example.com"]);
    const [mail] = g.smtp.messages;
    expect(mail?.subject).toBe("Noosphere: your early access is ready");
    expect(mail?.from).toBe("hello@noosphere.test");
    // The product's page with its own query kept and the code added; their status page; the usual leave link;
    // nothing else.
    expect(mail?.links).toHaveLength(4);
    expect(mail?.links[0]).toMatch(/^https:\/\/app\.noosphere\.test\/signup\?from=waitlist&invite=[A-Za-z0-9_-]{27}$/);
    expect(mail?.links[1]).toMatch(/^http:\/\/localhost:4321\/waitlist\/status\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail?.links[2]).toMatch(/^http:\/\/localhost:4321\/waitlist\/leave\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail?.links[3]).toBe("http://localhost:4321");
    expect(mail?.html).not.toMatch(/<img|<script/i);
    // Only a hash of the code is stored.
    const code = await codeOf("first@example.com");
    const stored = await g.store.db.query("SELECT 1 FROM waitlist WHERE invite_code_hash = $1", [code]);
    expect(stored).toHaveLength(0);
    const [row] = await g.store.db.query<{ invited: boolean; days: number }>(
      `SELECT invited_at IS NOT NULL AS invited, round(extract(epoch FROM invite_expires_at - invited_at) / 86400)::int AS days
       FROM waitlist WHERE email = 'first@example.com'`,
    );
    expect(row).toEqual({ invited: true, days: 30 });
  });

  it.runIf(available)("a dry run says how many and from which days, and changes nothing", async () => {
    await seed(
      ["pending@example.com", "pending"],
      ["first@example.com", "confirmed"],
      ["second@example.com", "confirmed"],
      ["third@example.com", "confirmed"],
    );
    const before = await g.store.db.query("SELECT * FROM waitlist ORDER BY id");
    expect(await previewWave(g.store, 2)).toEqual({
      count: 2,
      first: "2026-01-02T12:00:00.000Z",
      last: "2026-01-03T12:00:00.000Z",
      available: 3,
      interrupted: 0,
      movedUp: 0,
    });
    expect(await previewWave(g.store, 10)).toMatchObject({ count: 3, last: "2026-01-04T12:00:00.000Z" });
    expect(await g.store.db.query("SELECT * FROM waitlist ORDER BY id")).toEqual(before);
    expect(await g.store.db.query("SELECT * FROM waitlist_invite_wave")).toEqual([]);
    expect(g.smtp.messages).toHaveLength(0);
  });

  it.runIf(available)("two waves at the same moment never invite the same person", async () => {
    const people = Array.from({ length: 10 }, (_, i) => [`p${i}@example.com`, "confirmed"] as [string, string]);
    await seed(...people);
    const [a, b] = await Promise.all([wave(4, { owner: "cli@one:1" }), wave(4, { owner: "cli@two:2" })]);
    expect((a?.invited ?? 0) + (b?.invited ?? 0), JSON.stringify([a, b])).toBe(8);
    expect(g.smtp.messages).toHaveLength(8);
    expect(new Set(g.smtp.messages.map((m) => m.to)).size).toBe(8);
    // The oldest eight, in sign-up order; the two youngest wait.
    expect(g.smtp.messages.map((m) => m.to).sort()).toEqual(people.slice(0, 8).map(([email]) => email));
    expect(Object.values(await statuses()).filter((s) => s === "confirmed")).toHaveLength(2);
  });

  it.runIf(available)("a recipient the SMTP server refuses stays confirmed; the others are invited", async () => {
    await seed(
      ["first@example.com", "confirmed"],
      ["refused@example.com", "confirmed"],
      ["third@example.com", "confirmed"],
    );
    expect(await wave(3)).toEqual({ resumed: false, invited: 2, refused: 1, stopped: null, paused: null });
    expect(await statuses()).toEqual({
      "first@example.com": "invited",
      "refused@example.com": "confirmed",
      "third@example.com": "invited",
    });
    const [refused] = await g.store.db.query<Record<string, unknown>>(
      `SELECT invite_code_hash, invite_wave_id, invite_attempted_at, invited_at,
         (SELECT count(*)::int FROM waitlist_token t WHERE t.waitlist_id = w.id) AS tokens
       FROM waitlist w WHERE email = 'refused@example.com'`,
    );
    expect(refused).toEqual({
      invite_code_hash: null,
      invite_wave_id: null,
      invite_attempted_at: null,
      invited_at: null,
      tokens: 0,
    });
    // A later wave takes them first again.
    expect(await previewWave(g.store, 5)).toMatchObject({ count: 1, first: "2026-01-02T12:00:00.000Z" });
  });

  it.runIf(available)("an unreachable SMTP server stops the wave and invites nobody", async () => {
    await seed(["first@example.com", "confirmed"], ["second@example.com", "confirmed"]);
    // Nothing listens on port 1.
    const report = await wave(2, {
      delivery: { kind: "mail", mailer: createSmtpMailer({ smtpUrl: "smtp://127.0.0.1:1", from: MAIL_FROM }) },
    });
    expect(report).toMatchObject({ invited: 0, refused: 0, resumed: false });
    expect(report.stopped).toMatch(/ECONNECTION|ESOCKET/);
    expect(await statuses()).toEqual({ "first@example.com": "confirmed", "second@example.com": "confirmed" });
    expect(await g.store.db.query("SELECT 1 FROM waitlist WHERE invite_wave_id IS NOT NULL")).toEqual([]);
  });

  it.runIf(available)(
    "a wave that died before it heard its second e-mail accepted mails that person again: never invited unmailed",
    async () => {
      await seed(
        ["first@example.com", "confirmed"],
        ["second@example.com", "confirmed"],
        ["third@example.com", "confirmed"],
        ["fourth@example.com", "confirmed"],
      );
      // The process "dies" right after the SMTP server accepted its second e-mail, before it read the answer: from
      // then on it can write nothing more. Its owner names a process that does not exist on this host.
      let dead = false;
      const dying: Store = {
        ...g.store,
        invites: new Proxy(g.store.invites, {
          get: (target, key) => {
            const method = Reflect.get(target, key) as (...args: unknown[]) => Promise<unknown>;
            return (...args: unknown[]) => (dead ? Promise.reject(new Error("killed")) : method.apply(target, args));
          },
        }),
      };
      let sent = 0;
      const killedMailer: Mailer = {
        async send(to, message, options) {
          await g.mailer.send(to, message, options);
          if (++sent === 2) {
            dead = true;
            throw new Error("killed");
          }
        },
        close() {},
      };
      await expect(
        runWave({
          store: dying,
          next: 3,
          delivery: { kind: "mail", mailer: killedMailer },
          accessUrl: earlyAccessBase(ACCESS),
          siteUrl: ORIGIN,
          ttlDays: 30,
          owner: `cli@${hostname()}:2147483646`,
        }),
      ).rejects.toThrow("killed");
      expect(await statuses()).toMatchObject({ "first@example.com": "invited", "second@example.com": "confirmed" });
      expect(await previewWave(g.store, 3)).toMatchObject({ count: 1, interrupted: 2 });
      // No answer was heard, so nothing says the second person was invited: the next run mails them again (a
      // second e-mail in that narrow window), rather than count them invited on a guess.
      expect(await wave(3)).toEqual({ resumed: true, invited: 2, refused: 0, stopped: null, paused: null });
      expect(await statuses()).toEqual({
        "first@example.com": "invited",
        "second@example.com": "invited",
        "third@example.com": "invited",
        "fourth@example.com": "confirmed",
      });
      expect(g.smtp.messages.map((m) => m.to)).toEqual([
        "first@example.com",
        "second@example.com",
        "second@example.com",
        "third@example.com",
      ]);
      expect(await g.store.db.query("SELECT 1 FROM waitlist_invite_wave WHERE finished_at IS NULL")).toEqual([]);
      // The code of the e-mail they got last is theirs.
      const [, last] = await g.smtp.waitFor("second@example.com", 2);
      const second = new URL(last?.links.find((l) => l.startsWith("https://app.noosphere.test/")) ?? "http://x");
      const res = await redeem({ code: second.searchParams.get("invite") });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ email: "second@example.com", name: "SECOND" });
    },
  );

  it.runIf(available)(
    "someone who leaves while the server holds their RCPT TO is not mailed; the wave goes on",
    async () => {
      await seed(
        ["first@example.com", "confirmed"],
        ["second@example.com", "confirmed"],
        ["third@example.com", "confirmed"],
      );
      const [second] = await g.store.db.query<{ id: number }>(
        "SELECT id FROM waitlist WHERE email = 'second@example.com'",
      );
      // The wave checks that a person is still listed once the server has answered their envelope, not before: a
      // check made while the server weighs their RCPT TO would miss whoever leaves meanwhile.
      const events: string[] = [];
      const watched: Store = {
        ...g.store,
        invites: {
          ...g.store.invites,
          attempted: (wave, id) => {
            if (Number(id) === Number(second?.id)) events.push("second checked");
            return g.store.invites.attempted(wave, id);
          },
        },
      };
      const held = g.smtp.hold("rcpt", "second@example.com");
      const running = wave(3, { store: watched });
      await held.reached;
      expect(await g.store.erase("second@example.com")).toBe(true);
      events.push("RCPT TO answered");
      held.release();
      expect(await running).toEqual({ resumed: false, invited: 2, refused: 0, stopped: null, paused: null });
      expect(events).toEqual(["RCPT TO answered", "second checked"]);
      expect(g.smtp.messages.map((m) => m.to)).toEqual(["first@example.com", "third@example.com"]);
      expect(await statuses()).toEqual({ "first@example.com": "invited", "third@example.com": "invited" });
    },
  );

  it.runIf(available)("with mail off, the CSV holds every address and link exactly as stored", async () => {
    await seed(["-bob@example.com", "confirmed"], ["=carol@example.com", "confirmed"]);
    await g.store.db.query("UPDATE waitlist SET name = '=HYPERLINK(1)' WHERE email = '=carol@example.com'");
    let csv = "";
    const write = async (text: string) => {
      csv += text;
    };
    expect(await wave(2, { delivery: { kind: "csv", write } })).toMatchObject({ invited: 2 });
    const rows = csv.split("\r\n").map((row) => row.replace(/invite=[\w-]{27}$/, "invite=CODE"));
    expect(rows).toEqual([
      "-bob@example.com,'-BOB,https://app.noosphere.test/signup?from=waitlist&invite=CODE",
      "=carol@example.com,'=HYPERLINK(1),https://app.noosphere.test/signup?from=waitlist&invite=CODE",
      "",
    ]);
  });

  it.runIf(available)(
    "a wave given a slice pauses when it is spent and goes on where it stopped; each person mailed once",
    async () => {
      const people = Array.from({ length: 10 }, (_, i): [string, string] => [`p${i + 1}@example.com`, "confirmed"]);
      await seed(...people);
      // A slow SMTP server on the wave's own clock: each e-mail takes 100 ms of it, and a slice is 250 ms.
      let clock = 0;
      await g.smtp.close();
      g.smtp = await startSmtp({
        beforeAnswer: () => {
          clock += 100;
        },
      });
      g.mailer = createSmtpMailer({ smtpUrl: g.smtp.url, from: MAIL_FROM });
      const slice = { ms: 250, now: () => clock };
      const same = { resumed: false, refused: 0, stopped: null };

      const first = await wave(10, { slice });
      const id = first.paused?.wave ?? 0;
      expect(first).toEqual({ ...same, invited: 3, paused: { wave: id, remaining: 7 } });
      expect(Object.values(await statuses())).toEqual([...Array(3).fill("invited"), ...Array(7).fill("confirmed")]);
      // The paused wave holds the other seven: no new wave takes them, and the preview says so.
      expect(await previewWave(g.store, 10)).toMatchObject({ count: 0, interrupted: 7 });

      const options = {
        store: g.store,
        delivery: { kind: "mail", mailer: g.mailer } as const,
        accessUrl: earlyAccessBase(ACCESS),
      };
      const go = () => continueWave({ ...options, siteUrl: ORIGIN, ttlDays: 30, slice }, id);
      expect(await go()).toEqual({ ...same, invited: 3, paused: { wave: id, remaining: 4 } });
      expect(await go()).toEqual({ ...same, invited: 3, paused: { wave: id, remaining: 1 } });
      // Left paused, the wave is completed by the next run (the CLI's, here), which starts no new one.
      expect(await wave(5)).toEqual({ ...same, resumed: true, invited: 1, paused: null });
      expect(await go()).toBeNull();

      expect(Object.values(await statuses())).toEqual(Array(10).fill("invited"));
      expect(g.smtp.messages.map((m) => m.to)).toEqual(people.map(([email]) => email));
      expect(await g.store.db.query("SELECT 1 FROM waitlist_invite_wave WHERE finished_at IS NULL")).toEqual([]);
    },
  );

  it.runIf(available)("with mail off, a slice bounds the rows of one CSV; the next one goes on", async () => {
    await seed(...Array.from({ length: 5 }, (_, i): [string, string] => [`p${i + 1}@example.com`, "confirmed"]));
    const files: string[] = [];
    const csv = (): Partial<WaveOptions> => {
      files.push("");
      const write = async (text: string) => {
        files[files.length - 1] += text;
      };
      return { delivery: { kind: "csv", write }, slice: { ms: 60_000, people: 2 } };
    };
    const first = await wave(5, csv());
    const id = first.paused?.wave ?? 0;
    expect(first).toMatchObject({ invited: 2, paused: { wave: id, remaining: 3 } });
    const rest = { store: g.store, accessUrl: earlyAccessBase(ACCESS), siteUrl: ORIGIN, ttlDays: 30 };
    expect(await continueWave({ ...rest, ...(csv() as Pick<WaveOptions, "delivery">) }, id)).toMatchObject({
      invited: 2,
      paused: { wave: id, remaining: 1 },
    });
    expect(await continueWave({ ...rest, ...(csv() as Pick<WaveOptions, "delivery">) }, id)).toMatchObject({
      invited: 1,
      paused: null,
    });
    expect(files.map((file) => file.match(/p\d@example\.com/g))).toEqual([
      ["p1@example.com", "p2@example.com"],
      ["p3@example.com", "p4@example.com"],
      ["p5@example.com"],
    ]);
  });
});
