/**
 * The background function (src/server/jobs/, netlify/functions/jobs-background.ts) through its real handler,
 * on PGlite and a real SMTP server: it runs a job only for a request signed by the server's secret (SERVER_SECRET,
 * else a key the process made; never the database's, which a copy of the database holds), within its minute, once; a double start is one run; and an invocation that dies half-way is finished by the every-minute
 * scheduler's resumption, nobody mailed twice or skipped. The console's update goes the same way, to its page.
 */
import type { Context } from "@netlify/functions";
import { beforeEach, describe, expect, it } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import { JOBS } from "../../../src/server/app/jobs";
import { readConfig } from "../../../src/server/config";
import { jobStartKey } from "../../../src/server/crypto/keys";
import type { RootKey } from "../../../src/server/crypto/secret";
import { jobStartRequest, resumeJobs, SIGNATURE_HEADER } from "../../../src/server/jobs";
import {
  ADMIN,
  background,
  call,
  form,
  h,
  inProcessStarter,
  ORIGIN,
  openConsoleHarness,
  pending,
  signInByLink,
} from "../../support/console-harness";
import { newUpdate, nonces, sentTo, settle, recipientStates as states } from "../../support/jobs-ground";

openConsoleHarness();

/** The people newUpdate() writes to. */
const PEOPLE = 5;
const root = async () => jobStartKey(h.config);
const run = (request: Request) => background(request, createContext(request, "127.0.0.1", pending) as Context);
const everyone = Array.from({ length: PEOPLE }, (_, i) => `u${i + 1}@example.com`);

beforeEach(async () => {
  await h.store.db.query("DELETE FROM waitlist_job_nonce");
});

describe("only the product can start a run", () => {
  it("refuses an unsigned, a wrongly signed, an expired and a replayed start with 401, changing nothing", async () => {
    const id = await newUpdate();
    const before = h.smtp.messages.length;
    const signed = jobStartRequest(ORIGIN, await root(), "update", id);
    const body = await signed.clone().text();

    const unsigned = new Request(signed.url, { method: "POST", body, headers: { "Content-Type": "application/json" } });
    expect((await run(unsigned)).status).toBe(401);
    const forged = jobStartRequest(ORIGIN, Buffer.from("not the server's secret") as RootKey, "update", id);
    expect((await run(forged)).status).toBe(401);
    const tampered = new Request(signed.url, {
      method: "POST",
      body: body.replace(`"id":${id}`, `"id":${id + 1}`),
      headers: { [SIGNATURE_HEADER]: signed.headers.get(SIGNATURE_HEADER) ?? "" },
    });
    expect((await run(tampered)).status).toBe(401);
    // Signed two minutes ago: its minute is over.
    const expired = jobStartRequest(ORIGIN, await root(), "update", id, Date.now() - 120_000);
    expect((await run(expired)).status).toBe(401);
    expect((await run(new Request(signed.url))).status).toBe(401);
    // Nothing ran, nothing was recorded.
    expect(sentTo(before)).toEqual([]);
    expect(await states(id)).toEqual([`queued:${PEOPLE}`]);
    expect(await nonces()).toBe(0);

    // The signed start runs the update to its end; the same request again is refused and sends nothing.
    expect((await run(signed.clone())).status).toBe(202);
    await settle();
    expect(sentTo(before)).toEqual(everyone);
    expect((await run(signed)).status).toBe(401);
    await settle();
    expect(sentTo(before)).toEqual(everyone);
    expect(await nonces()).toBe(1);
  });

  it.each([
    ["without SERVER_SECRET", {}],
    ["with SERVER_SECRET", { SERVER_SECRET: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" }],
  ])("refuses a start signed with the database's own secret (a copy's), %s: 401, nothing sent", async (_w, env) => {
    h.config = readConfig({ ...env, SMTP_URL: h.smtp.url, MAIL_FROM: "Noosphere <hello@noosphere.test>" });
    const id = await newUpdate();
    const before = h.smtp.messages.length;
    // What whoever holds a copy of the database can compute: waitlist_secret's value, as the start's root.
    const [row] = await h.store.db.query<{ value: string }>("SELECT value FROM waitlist_secret WHERE name = 'server'");
    const copied = Buffer.from(row?.value ?? "", "hex") as RootKey;
    expect((await run(jobStartRequest(ORIGIN, copied, "update", id))).status).toBe(401);
    await settle();
    expect(sentTo(before)).toEqual([]);
    expect(await states(id)).toEqual([`queued:${PEOPLE}`]);
    expect(await nonces()).toBe(0);
    // The server's own key starts it.
    expect((await run(jobStartRequest(ORIGIN, jobStartKey(h.config), "update", id))).status).toBe(202);
    await settle();
    expect(sentTo(before)).toEqual(everyone);
  });

  it("two starts of one job at once (a double click, two tabs) are one run: everyone once", async () => {
    const id = await newUpdate();
    const before = h.smtp.messages.length;
    const key = await root();
    const answers = await Promise.all([
      run(jobStartRequest(ORIGIN, key, "update", id)),
      run(jobStartRequest(ORIGIN, key, "update", id)),
    ]);
    await settle();
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    expect(sentTo(before).sort()).toEqual(everyone);
    expect(await states(id)).toEqual([`sent:${PEOPLE}`]);
  });
});

describe("a run that dies", () => {
  it("is finished by the scheduler's resumption: the rest sent, the one under way not twice", async () => {
    const id = await newUpdate();
    const before = h.smtp.messages.length;
    const key = await root();
    // The first invocation sends two, then hangs on the third message's DATA, as a run does whose container is lost.
    const held = h.smtp.hold("data", "u3@example.com");
    const first = run(jobStartRequest(ORIGIN, key, "update", id));
    await held.reached;
    expect(await resumeJobs(h.store, inProcessStarter(ORIGIN, key), JOBS)).toBe(0);
    // Silent past the staleness rule (a minute, moved here rather than waited for): its lease has expired.
    await h.store.db.query("UPDATE waitlist_update SET heartbeat_at = now() - interval '61 seconds' WHERE id = $1", [
      id,
    ]);
    expect(await resumeJobs(h.store, inProcessStarter(ORIGIN, key), JOBS)).toBe(1);
    await settle();
    expect(await states(id)).toEqual([`sent:${PEOPLE}`]);
    // The dead run wakes: it no longer holds the update, so its message is abandoned before its last byte.
    held.release();
    expect((await first).status).toBe(202);
    expect(sentTo(before).sort()).toEqual(everyone);
    const [row] = await h.store.db.query<{ finished: boolean; sent: number }>(
      "SELECT finished_at IS NOT NULL AS finished, sent FROM waitlist_update WHERE id = $1",
      [id],
    );
    expect(row).toEqual({ finished: true, sent: PEOPLE });
  });

  it("a run whose successor never came is started again after 30 s; a paused one is left alone", async () => {
    const id = await newUpdate();
    const key = await root();
    await h.store.db.query("UPDATE waitlist_update SET owner = 'paused', heartbeat_at = now() WHERE id = $1", [id]);
    expect(await resumeJobs(h.store, inProcessStarter(ORIGIN, key), JOBS)).toBe(0);
    await h.store.db.query("UPDATE waitlist_update SET heartbeat_at = now() - interval '25 seconds' WHERE id = $1", [
      id,
    ]);
    expect(await resumeJobs(h.store, inProcessStarter(ORIGIN, key), JOBS)).toBe(0);
    await h.store.db.query("UPDATE waitlist_update SET heartbeat_at = now() - interval '31 seconds' WHERE id = $1", [
      id,
    ]);
    await h.store.db.query("UPDATE waitlist_update SET paused_reason = 'complaints over 0.3 %' WHERE id = $1", [id]);
    expect(await resumeJobs(h.store, inProcessStarter(ORIGIN, key), JOBS)).toBe(0);
    await h.store.db.query("UPDATE waitlist_update SET paused_reason = NULL WHERE id = $1", [id]);
    expect(await resumeJobs(h.store, inProcessStarter(ORIGIN, key), JOBS)).toBe(1);
    await settle();
    expect(await states(id)).toEqual([`sent:${PEOPLE}`]);
  });
});

describe("the console's update", () => {
  it("after the confirmation, runs by itself and lands on its page: bar, counts, who and when", async () => {
    await newUpdate();
    const cookie = await signInByLink();
    const before = h.smtp.messages.length;
    const draft = { subject: "Our news", body: "Hello, everyone." };
    const confirm = await (await form("/admin/updates", { ...draft, action: "confirm" }, { cookie })).text();
    const ticket = /name="ticket" value="([\w-]{22})"/.exec(confirm)?.[1] ?? "";
    const sent = await form("/admin/updates", { ...draft, action: "send", ticket }, { cookie });
    expect(sent.status).toBe(303);
    const location = sent.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\/jobs\?kind=update&id=\d+&done=started$/);
    const id = /id=(\d+)/.exec(location)?.[1];
    expect(sentTo(before).sort()).toEqual(everyone);
    const page = await (await call(location, { cookie })).text();
    // Named by what it does (never its id), in the Updates area; its state a badge.
    // Finished: it says so and when, never "Sending" nor an estimate of a finish already past.
    expect(page).toContain("<h1>Sent “Our news”</h1>");
    expect(page).toContain('<a href="/admin/updates" aria-current="page">Updates</a>');
    expect(page).toMatch(
      /<p role="status" class="job-state"><span class="badge tone-good">Finished<\/span> at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.<\/p>/,
    );
    expect(page).toMatch(/<div><dt>Finished<\/dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/dd><\/div>/);
    expect(page).not.toContain("Sending");
    expect(page).not.toContain("Estimated finish");
    expect(page).toContain(
      `<label for="job-update-${id}" class="bar-label">Sent “Our news”: 5 of 5 (100%)</label><progress id="job-update-${id}" max="5" value="5">100%</progress>`,
    );
    // What came back, and the e-mail as it went out, in frames of its own page.
    expect(page).toContain(
      "<div><dt>Hard bounces</dt><dd>0 (0 %)</dd></div><div><dt>Soft bounces</dt><dd>0</dd></div><div><dt>Complaints</dt><dd>0 (0 %)</dd></div>",
    );
    expect(page).toContain(
      `<iframe src="/admin/updates/mail?update=${id}" title="The e-mail “Our news”, on a phone" sandbox="allow-popups allow-popups-to-escape-sandbox" width="360" height="560"></iframe>`,
    );
    expect(page).toContain(
      "<div><dt>Sent</dt><dd>5</dd></div><div><dt>Failed</dt><dd>0</dd></div><div><dt>Waiting to retry</dt><dd>0</dd></div><div><dt>Skipped: stopped updates or left</dt><dd>0</dd></div><div><dt>Still to send</dt><dd>0</dd></div>",
    );
    expect(page).toContain(`<div><dt>Started by</dt><dd>${ADMIN}</dd></div>`);
    expect(page).toMatch(/<div><dt>Started<\/dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/dd><\/div>/);
    expect(page).toContain('<a href="/admin/updates">Back to Updates</a>');
    expect(page).not.toContain('http-equiv="refresh"');
    // A second press of the same confirmation: the same words are that update, already sent; nobody mailed again.
    const again = await form("/admin/updates", { ...draft, action: "send", ticket }, { cookie });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("with this text was already sent");
    expect(sentTo(before)).toHaveLength(PEOPLE);
  });
});
