/**
 * A job cancelled, paused or finished stops where it stands: its run ends at once with that outcome, and no
 * successor is started (issue 48: a cancel two seconds into a send once started 4,697 runs in ten seconds). Every
 * kind the background function runs (updates, waves, webhook backlogs), through its real handler, on PGlite and a
 * real SMTP server; the runs are counted by their starts, their `jobs.run_ended` lines and their nonce rows.
 */
import type { Context } from "@netlify/functions";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import { JOBS } from "../../../src/server/app/jobs";
import { jobStartKey } from "../../../src/server/crypto/keys";
import type { RootKey } from "../../../src/server/crypto/secret";
import { previewWave, reserveWave } from "../../../src/server/invitations";
import {
  cancelJob,
  createBackgroundHandler,
  type JobKind,
  type JobStarter,
  jobStartRequest,
  resumeJobs,
} from "../../../src/server/jobs";
import { h, ORIGIN, openConsoleHarness, peekForm, pending, signInByLink } from "../../support/console-harness";
import {
  actWhileHeld,
  newUpdate,
  nonces,
  recipientStates,
  seedConfirmed,
  sentTo,
  settle,
} from "../../support/jobs-ground";
import type { HeldStep } from "../../support/smtp";

openConsoleHarness();

/** Successor starts past this are refused, so a run that would start runs for ever shows as a count, not a hang. */
const CAP = 5;
let successors = 0;
let ended: Array<{ kind: string; outcome: string }> = [];

const counting =
  (origin: string, root: RootKey): JobStarter =>
  async (kind, id) => {
    successors++;
    if (successors > CAP) return false;
    track(run(jobStartRequest(origin, root, kind, id)));
    return true;
  };
const background = createBackgroundHandler({
  store: async () => h.store,
  config: () => h.config,
  start: counting,
  jobs: JOBS,
});
const run = (request: Request) => background(request, createContext(request, "127.0.0.1", pending) as Context);
function track(work: Promise<unknown>): void {
  const tracked: Promise<unknown> = work.catch(() => {}).finally(() => pending.delete(tracked));
  pending.add(tracked);
}
/** Signed as the site signs a start (crypto/keys.ts): SERVER_SECRET's key, or this process's; never the database's. */
const start = (kind: JobKind, id: number) => run(jobStartRequest(ORIGIN, jobStartKey(h.config), kind, id));
const cancel = (kind: JobKind, id: number, cookie: string) =>
  peekForm("/admin/jobs", { kind, id: String(id), action: "cancel", confirm: "yes" }, cookie);

beforeEach(async () => {
  await h.store.db.query("DELETE FROM waitlist_job_nonce");
  successors = 0;
  ended = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => {
    // Only the server's own JSON lines name an event; anything else printed is not a run's end.
    if (!String(line).includes('"event":"jobs.run_ended"')) return;
    const entry = JSON.parse(String(line)) as { kind: string; outcome: string };
    ended.push({ kind: entry.kind, outcome: entry.outcome });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("an update stops where it stands", () => {
  it("cancelled mid-send: its one run ends 'cancelled', nothing more is sent, no successor, one nonce", async () => {
    const id = await newUpdate();
    const cookie = await signInByLink();
    const before = h.smtp.messages.length;
    const answer = await actWhileHeld(
      ["data", "u2@example.com"],
      () => start("update", id),
      async () => {
        expect((await cancel("update", id, cookie)).headers.get("location")).toBe(
          `/admin/jobs?kind=update&id=${id}&done=cancelled`,
        );
      },
    );
    expect(answer.status).toBe(202);
    expect(successors).toBe(0);
    expect(ended).toEqual([{ kind: "update", outcome: "cancelled" }]);
    expect(await nonces()).toBe(1);
    // u1 went before; u2's message was on its way (its last bytes sent); nobody after the cancel.
    expect(sentTo(before)).toEqual(["u1@example.com", "u2@example.com"]);
    expect(await recipientStates(id)).toEqual(["attempted:1", "queued:3", "sent:1"]);
  });

  it("paused mid-send: its run ends 'paused' with no successor; a start of a cancelled one runs nothing", async () => {
    const id = await newUpdate();
    const cookie = await signInByLink();
    const before = h.smtp.messages.length;
    await actWhileHeld(
      ["data", "u3@example.com"],
      () => start("update", id),
      () => peekForm("/admin/jobs", { kind: "update", id: String(id), action: "pause" }, cookie),
    );
    expect(successors).toBe(0);
    expect(ended).toEqual([{ kind: "update", outcome: "paused" }]);
    expect(sentTo(before)).toEqual(["u1@example.com", "u2@example.com", "u3@example.com"]);

    // Cancelled while paused, then started (a start already on its way, a replayed scheduler): it ends at once.
    expect(await cancelJob(h.store.db, "update", id)).toBe(true);
    expect((await start("update", id)).status).toBe(202);
    await settle();
    expect(successors).toBe(0);
    expect(ended).toEqual([
      { kind: "update", outcome: "paused" },
      { kind: "update", outcome: "cancelled" },
    ]);
    expect(await nonces()).toBe(2);
    expect(sentTo(before)).toHaveLength(3);
  });
});

describe("a wave stops where it stands, and its people go back at once", () => {
  async function newWave(n: number): Promise<number> {
    await seedConfirmed("p", n);
    await h.store.db.query("DELETE FROM waitlist_invite_wave");
    const wave = await h.store.invites.startWave("paused", n);
    expect(await reserveWave(h.store, wave, n, 0)).toBe(n);
    return wave;
  }
  const free = async () =>
    Number(
      (
        await h.store.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM waitlist WHERE status = 'confirmed' AND invite_wave_id IS NULL",
        )
      )[0]?.n,
    );

  it.each<[string, HeldStep, string[], { confirmed: number; invited: number }]>([
    // The run is alive and holds the lease, yet p2 … p5 are back in line before it hears from the server; its check
    // before p2's last bytes finds p2 no longer in the wave: the message is abandoned.
    [
      "while its live run waits on a RCPT TO: everyone not mailed is free at once, and stays unmailed",
      "rcpt",
      ["p1@example.com"],
      { confirmed: 4, invited: 1 },
    ],
    [
      "while an invitation's last bytes wait for their answer: that one is invited, the rest are free",
      "data",
      ["p1@example.com", "p2@example.com"],
      { confirmed: 3, invited: 2 },
    ],
  ])("cancelled %s", async (_what, step, sent, statuses) => {
    const wave = await newWave(5);
    const cookie = await signInByLink();
    const before = h.smtp.messages.length;
    await actWhileHeld(
      [step, "p2@example.com"],
      () => start("wave", wave),
      async () => {
        await cancel("wave", wave, cookie);
        expect(await free()).toBe(statuses.confirmed);
      },
    );
    expect(sentTo(before)).toEqual(sent);
    expect(await h.store.countByStatus()).toMatchObject(statuses);
    expect(await free()).toBe(statuses.confirmed);
    expect(successors).toBe(0);
    expect(ended).toEqual([{ kind: "wave", outcome: "cancelled" }]);
    expect(await nonces()).toBe(1);
  });
});

describe("a wave whose run died", () => {
  const ids = async (where: string) =>
    (await h.store.db.query<{ id: number }>(`SELECT id FROM waitlist WHERE ${where} ORDER BY id`)).map((r) => r.id);
  /**
   * A wave of 20 whose run was killed (kill -9) on another host a moment ago: 5 mailed and invited, one whose
   * e-mail was on its way when it died (ten minutes ago), 14 still held; its lease still names the dead owner.
   */
  async function killedWave(): Promise<number> {
    await seedConfirmed("p", 20);
    await h.store.db.query("DELETE FROM waitlist_invite_wave");
    const wave = await h.store.invites.startWave("background-wave-0badf00d@elsewhere.invalid:4242", 20);
    expect(await reserveWave(h.store, wave, 20, 0)).toBe(20);
    await h.store.db.query(
      `UPDATE waitlist SET status = 'invited', invited_at = now(), invite_wave_id = NULL, invited_wave_id = $1
       WHERE email IN ('p1@example.com', 'p2@example.com', 'p3@example.com', 'p4@example.com', 'p5@example.com')`,
      [wave],
    );
    await h.store.db.query(
      `UPDATE waitlist SET invite_code_hash = 'h6', invite_expires_at = now() + interval '30 days',
         invite_attempted_at = now() - interval '10 minutes' WHERE email = 'p6@example.com'`,
    );
    await h.store.db.query(
      "UPDATE waitlist_invite_wave SET heartbeat_at = now() - interval '10 seconds' WHERE id = $1",
      [wave],
    );
    return wave;
  }

  it("Cancel lets all 15 not mailed go back at once: the CLI, Invite selected and Invite now take them", async () => {
    const wave = await killedWave();
    const cookie = await signInByLink();
    const before = h.smtp.messages.length;
    expect((await cancel("wave", wave, cookie)).headers.get("location")).toBe(
      `/admin/jobs?kind=wave&id=${wave}&done=cancelled`,
    );
    expect(await ids(`invite_wave_id = ${wave}`)).toEqual([]);
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 15, invited: 5 });
    // The CLI's `invite --next 100` offers all 15.
    expect(await previewWave(h.store, 100)).toMatchObject({ count: 15, available: 15, interrupted: 0 });
    const [first, ...rest] = await ids("status = 'confirmed'");
    // Invite now, on a person's page: mailed and invited.
    const now = await peekForm("/admin/person", { id: String(first), action: "invite", confirm: "yes" }, cookie);
    expect(now.headers.get("location")).toBe(`/admin/person?id=${first}&done=invited`);
    // Invite selected, the other 14: none "a wave is sending their invitation right now".
    const asked = await (
      await peekForm("/admin/people/selected", { ids: rest.join(","), action: "invite" }, cookie)
    ).text();
    expect(asked).toContain("<h1>Invite 14 people?</h1>");
    expect(asked).not.toContain("A wave is sending their invitation right now.");
    const done = await peekForm(
      "/admin/people/selected",
      { ids: rest.join(","), action: "invite", confirm: "yes" },
      cookie,
    );
    expect(done.status).toBe(303);
    await settle();
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 0, invited: 20 });
    expect(sentTo(before).filter((to) => to !== "ops@noosphere.test")).toHaveLength(15);
  });

  it("one whose e-mail was in flight when its live run was cancelled, and that run then died: freed by the scheduler", async () => {
    const wave = await killedWave();
    // Its e-mail's last bytes went 30 s ago: the run might still hear the answer, so Cancel leaves them with it.
    await h.store.db.query(
      "UPDATE waitlist SET invite_attempted_at = now() - interval '30 seconds' WHERE email = 'p6@example.com'",
    );
    const cookie = await signInByLink();
    await cancel("wave", wave, cookie);
    expect(await ids(`invite_wave_id = ${wave}`)).toHaveLength(1);
    const never: JobStarter = async () => false;
    await resumeJobs(h.store, never, JOBS);
    expect(await ids(`invite_wave_id = ${wave}`)).toHaveLength(1);
    // Three minutes on, no answer came: that run is gone too, and the scheduler's minute lets them go.
    await h.store.db.query(
      "UPDATE waitlist SET invite_attempted_at = now() - interval '3 minutes' WHERE email = 'p6@example.com'",
    );
    await resumeJobs(h.store, never, JOBS);
    expect(await ids(`invite_wave_id = ${wave}`)).toEqual([]);
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 15, invited: 5 });
  });
});

describe("a webhook backlog", () => {
  it("cancelled before its run: the run ends 'cancelled' at once, no successor", async () => {
    const [row] = await h.store.db.query<{ id: number }>(
      "INSERT INTO waitlist_webhook_drain (author, owner, heartbeat_at, total) VALUES ('CLI', 'paused', now(), 3) RETURNING id",
    );
    const id = Number(row?.id);
    expect(await cancelJob(h.store.db, "webhooks", id)).toBe(true);
    expect((await start("webhooks", id)).status).toBe(202);
    await settle();
    expect(successors).toBe(0);
    expect(ended).toEqual([{ kind: "webhooks", outcome: "cancelled" }]);
  });
});
