import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/server/config";
import { createConsoleHandler } from "../../../src/server/console/handler";
import {
  ADMIN,
  call,
  cookieOf,
  form,
  h,
  handler,
  inProcessStarter,
  openConsoleHarness,
  peek,
  peekForm,
  signInByLink,
} from "../../support/console-harness";
import { readText } from "../../support/console-reading";

openConsoleHarness();

describe("downloads and waves within Netlify's limits", () => {
  /** The clock of a mail-off wave's file (its slice); nothing here moves it. */
  const clock = 0;
  const small = createConsoleHandler({
    store: async () => h.store,
    config: () => h.config,
    partSize: { bytes: 1_000_000_000, rows: 4 },
    waveSlice: { ms: 250, now: () => clock },
    startJob: inProcessStarter,
  });
  beforeAll(() => {
    h.active = small;
  });
  afterAll(() => {
    h.active = handler;
  });

  async function seed(n: number, status = "confirmed") {
    await h.store.db.query("DELETE FROM waitlist");
    await h.store.db.query("DELETE FROM waitlist_invite_wave");
    await h.store.db.query(
      `INSERT INTO waitlist (name, email, status, created_at)
       SELECT 'Person ' || g, 'p' || g || '@example.com', $1, timestamptz '2026-01-01' + g * interval '1 minute'
       FROM generate_series(1, $2::int) AS g`,
      [status, n],
    );
  }
  const emails = (text: string) => text.match(/p\d+@example\.com/g) ?? [];
  /** The fields of a preview's confirmation form, as the console's preview page gives them (its one-time ticket). */
  async function confirmation(next: string, cookie: string): Promise<Record<string, string>> {
    const preview = await (await form("/admin/invite", { next }, { cookie })).text();
    const ticket = /name="ticket" value="([\w-]{22})"/.exec(preview)?.[1] ?? "";
    return { next, confirm: "yes", ticket };
  }
  /**
   * A wave of `n` people confirmed from the console, its run held at the SMTP server's answer to `to`'s RCPT TO:
   * that held reply, the confirmation's request (it ends with the run), and the wave's id.
   */
  async function heldWave(n: number, to: string, cookie: string) {
    await seed(n);
    const held = h.smtp.hold("rcpt", to);
    const starting = form("/admin/invite", await confirmation(String(n), cookie), { cookie });
    await held.reached;
    const [row] = await h.store.db.query<{ id: number }>("SELECT max(id) AS id FROM waitlist_invite_wave");
    return { held, starting, wave: String(row?.id ?? 0) };
  }
  const hashes = async () =>
    (await h.store.db.query<{ h: string }>("SELECT invite_code_hash AS h FROM waitlist ORDER BY id")).map((r) => r.h);
  const day = new Date().toISOString().slice(0, 10);

  it("the export is a page of parts cut when it is made; each part a whole file, by a signed GET", async () => {
    const cookie = await signInByLink();
    await h.store.db.query("DELETE FROM waitlist");
    expect(await (await form("/admin/export", { format: "csv" }, { cookie })).text()).toContain(
      "There are no sign-ups yet: nothing to download.",
    );
    await seed(10);
    const page = await form("/admin/export", { format: "csv" }, { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("in 3 parts.");
    const links = [...html.matchAll(/<a href="([^"]+)">([^<]+)<\/a> <span class="note">([^<]+)<\/span>/g)];
    expect(links.map(([, , name, rows]) => [name, rows])).toEqual([
      [`waitlist-${day}-part-001-of-003.csv`, "4 sign-ups"],
      [`waitlist-${day}-part-002-of-003.csv`, "4 sign-ups"],
      [`waitlist-${day}-part-003-of-003.csv`, "2 sign-ups"],
    ]);
    const hrefs = links.map(([, href]) => (href ?? "").replaceAll("&amp;", "&"));
    expect(hrefs[0]).toMatch(/^\/admin\/export\/part\?format=csv&from=0&to=\d+&part=1&of=3&sig=[\w-]{22}$/);

    // A sign-up after the page is in no part; each part is a whole file, named by its number.
    await h.store.db.query("INSERT INTO waitlist (email) VALUES ('p11@example.com')");
    const files: string[] = [];
    for (const [index, href] of hrefs.entries()) {
      const res = await call(href, { cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="waitlist-${day}-part-00${index + 1}-of-003.csv"`,
      );
      expect(res.headers.get("cache-control")).toBe("no-store");
      files.push(await res.text());
    }
    for (const file of files) expect(file.split("\r\n")[0]).toMatch(/^created_at,name,email,message,status,/);
    expect(files.flatMap(emails)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i + 1}@example.com`));
    const zipped = await call(hrefs[0] ?? "", { cookie, headers: { "Accept-Encoding": "gzip, deflate" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");

    // Only with the session, and only the ranges the page made.
    expect((await call(hrefs[0] ?? "")).status).toBe(401);
    const href = hrefs[0] ?? "";
    for (const edited of [
      href.replace(/&to=\d+/, "&to=999999"),
      href.replace("&part=1", "&part=4"),
      href.replace("format=csv", "format=json"),
      href.replace(/&sig=[\w-]+/, ""),
      href.replace("from=0", "from=-1"),
    ]) {
      const res = await call(edited, { cookie });
      expect(res.status, edited).toBe(400);
      expect(await res.text()).toContain("This is not a download link the console made.");
    }
  });

  it("a wave's preview names the first 20 it would invite, with when and where from, and counts the rest", async () => {
    const cookie = await signInByLink();
    await seed(22);
    await h.store.db.query(
      `UPDATE waitlist SET source = CASE WHEN n % 2 = 0 THEN 'newsletter' END, created_at = created_at + (n % 3) * interval '1 day'
       FROM (SELECT id AS person, substring(email FROM 'p(\\d+)@')::int AS n FROM waitlist) p WHERE p.person = waitlist.id`,
    );
    const html = await (await form("/admin/invite", { next: "21" }, { cookie })).text();
    const main = (/<main id="main">([\s\S]*)<\/main>/.exec(html)?.[1] ?? "").replace(
      /name="ticket" value="[\w-]+"/,
      "",
    );
    expect(readText(/<h1>([^<]*)<\/h1>/.exec(main)?.[1] ?? "")).toBe("Invite 21 people?");
    const who = /<section aria-labelledby="wave-who">([\s\S]*?)<\/section>/.exec(main)?.[1] ?? "";
    expect(readText(/<p>([\s\S]*?)<\/p>/.exec(who)?.[1] ?? "")).toBe(
      "The next 21 people in line, who signed up between January 1, 2026 and January 3, 2026 (UTC).",
    );
    // In line order (sign-up order: REFERRAL_PLACES is 0 here), each a link to their page.
    const rows = [
      ...who.matchAll(
        /<tr><td data-label="Person"><a href="\/admin\/person\?id=(\d+)">([^<]+)<\/a><\/td><td data-label="Signed up">([^<]+)<\/td><td data-label="Source">([\s\S]*?)<\/td><\/tr>/g,
      ),
    ];
    expect(rows).toHaveLength(20);
    const ids = await h.store.db.query<{ id: number; email: string }>(
      "SELECT id, email FROM waitlist ORDER BY created_at, id LIMIT 20",
    );
    expect(rows.map((r) => `${r[2]} ${r[3]} ${readText(r[4] ?? "")}`).slice(0, 4)).toEqual([
      "p3@example.com 2026-01-01 00:03 None recorded",
      "p6@example.com 2026-01-01 00:06 newsletter",
      "p9@example.com 2026-01-01 00:09 None recorded",
      "p12@example.com 2026-01-01 00:12 newsletter",
    ]);
    expect(rows.map((r) => [Number(r[1]), r[2]])).toEqual(ids.map((p) => [Number(p.id), p.email]));
    expect(readText(/<p>(And [^<]*)<\/p>/.exec(who)?.[1] ?? "")).toBe("And 1 more person.");
    expect(main).toContain(
      '<button type="submit">Invite 21 people</button><a class="button quiet" href="/admin">Cancel</a>',
    );
    // A wave that names everyone it takes says so, with no "more".
    const small = await (await form("/admin/invite", { next: "2" }, { cookie })).text();
    expect(small).toContain('<caption class="sr-only">Everyone it invites</caption>');
    expect(small).not.toContain("more");
    expect(h.smtp.messages.filter((m) => m.to.startsWith("p")).length).toBe(0);
  });

  it("a wave from the console runs to the end by itself, on its own page; a second confirmation finds it", async () => {
    const cookie = await signInByLink();
    await seed(10);
    const before = h.smtp.messages.length;
    expect(await (await form("/admin/invite", { next: "1000000" }, { cookie })).text()).toContain(
      "Choose how many to invite, from 1 to 999,999.",
    );
    expect((await form("/admin/invite", { wave: "x1", confirm: "yes" }, { cookie })).status).toBe(400);

    const fields = await confirmation("10", cookie);
    // The background run is tracked like the platform's work: the answer below comes once it has ended.
    const started = await form("/admin/invite", fields, { cookie });
    expect(started.status).toBe(303);
    const location = started.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\/jobs\?kind=wave&id=\d+&done=started$/);
    const wave = /id=(\d+)/.exec(location)?.[1] ?? "";
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 0, invited: 10 });
    expect(h.smtp.messages.slice(before).map((m) => m.to)).toEqual(
      Array.from({ length: 10 }, (_, i) => `p${i + 1}@example.com`),
    );
    const page = await (await call(location, { cookie })).text();
    expect(page).toContain(
      '<p class="notice" role="status">Started: it runs by itself from here, and this page follows it.</p>',
    );
    expect(page).toMatch(
      /<p role="status" class="job-state"><span class="badge tone-good">Finished<\/span> at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.<\/p>/,
    );
    expect(page).not.toContain("Estimated finish");
    expect(page).toContain(`<progress id="job-wave-${wave}" max="10" value="10">100%</progress>`);
    expect(page).toContain(
      "<div><dt>Invited</dt><dd>10</dd></div><div><dt>Refused by the mail server</dt><dd>0</dd></div><div><dt>Still to invite</dt><dd>0</dd></div>",
    );
    expect(page).toContain(`<div><dt>Started by</dt><dd>${ADMIN}</dd></div>`);
    expect(page).toContain(`<a class="button quiet" href="/admin/people?wave=${wave}">See who it invited</a>`);
    // Done: the page no longer refreshes itself, and offers no Pause.
    expect(page).not.toContain('http-equiv="refresh"');
    expect(page).not.toContain(">Pause<");
    expect(page).not.toMatch(/<script/i);

    // The same confirmation again (a double click, a second tab): that wave's page, nobody mailed again.
    const again = await form("/admin/invite", fields, { cookie });
    expect(again.headers.get("location")).toBe(`/admin/jobs?kind=wave&id=${wave}`);
    expect(h.smtp.messages.length - before).toBe(10);

    // The first page's notice comes from the wave's row, by its id: a count typed into the address shows nothing.
    const notice = async (path: string) =>
      /<p class="notice" role="status">([^<]*)<\/p>/.exec(await (await call(path, { cookie })).text())?.[1] ?? null;
    expect(await notice(`/admin?wave=${wave}`)).toBe("Invited 10 people.");
    expect(await notice("/admin?invited=500&refused=0&stopped=1")).toBeNull();
    expect(await notice("/admin?wave=999999")).toBeNull();
    // With e-mail on, the form's max is what the CLI allows.
    expect(await (await call("/admin", { cookie })).text()).toMatch(
      /<input id="next" type="number" min="1" max="999999"/,
    );
  });

  it("Pause stops a running wave before its next e-mail; Resume finishes it; each is audited", async () => {
    const cookie = await signInByLink();
    const before = h.smtp.messages.length;
    const { held, starting, wave } = await heldWave(6, "p3@example.com", cookie);
    const path = `/admin/jobs?kind=wave&id=${wave}`;
    const running = await (await peek(path, { cookie })).text();
    expect(running).toContain('<p role="status" class="job-state"><span class="badge tone-live">Running</span></p>');
    expect(running).toContain('<meta http-equiv="refresh" content="3"/>');
    expect(running).toContain(`<progress id="job-wave-${wave}" max="6" value="2">33%</progress>`);
    expect(running).toContain('value="pause"/><button type="submit" class="quiet">Pause</button>');

    const paused = await peekForm("/admin/jobs", { kind: "wave", id: wave, action: "pause" }, cookie);
    expect(paused.headers.get("location")).toBe(`${path}&done=paused`);
    held.release();
    await starting;
    // The e-mail under way when it was paused went; the rest wait, held by the wave.
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 3, invited: 3 });
    const page = await (await call(path, { cookie })).text();
    expect(page).toContain(
      `<p role="status" class="job-state"><span class="badge tone-warn">Paused</span> Nothing more goes out until it is resumed. Paused by ${ADMIN}.</p>`,
    );
    expect(page).not.toContain('http-equiv="refresh"');
    expect(page).toContain('value="resume"/><button type="submit">Resume</button>');

    const resumed = await form("/admin/jobs", { kind: "wave", id: wave, action: "resume" }, { cookie });
    expect(resumed.headers.get("location")).toBe(`${path}&done=resumed`);
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 0, invited: 6 });
    expect(h.smtp.messages.slice(before).map((m) => m.to)).toEqual(
      Array.from({ length: 6 }, (_, i) => `p${i + 1}@example.com`),
    );
    const actions = await h.store.db.query<{ action: string }>(
      "SELECT action FROM waitlist_audit WHERE action LIKE 'job-%' AND details->>'phase' = 'ended' ORDER BY id DESC LIMIT 2",
    );
    expect(actions.map((a) => a.action)).toEqual(["job-resume", "job-pause"]);
  });

  it("Cancel asks first, then leaves the rest unsent and back in line", async () => {
    const cookie = await signInByLink();
    const before = h.smtp.messages.length;
    const { held, starting, wave } = await heldWave(4, "p2@example.com", cookie);
    const asked = await (await peekForm("/admin/jobs", { kind: "wave", id: wave, action: "cancel" }, cookie)).text();
    expect(asked).toContain("<h1>Cancel inviting 4 people?</h1>");
    expect(asked).toContain(
      "<p>3 people not invited yet go back to their place in line. Those invited stay invited.</p>",
    );
    const cancelled = await peekForm(
      "/admin/jobs",
      { kind: "wave", id: wave, action: "cancel", confirm: "yes" },
      cookie,
    );
    expect(cancelled.headers.get("location")).toBe(`/admin/jobs?kind=wave&id=${wave}&done=cancelled`);
    // Back in line at once, the run still alive: p2 too, whose server is still weighing their RCPT TO.
    expect((await h.store.db.query("SELECT 1 FROM waitlist WHERE invite_wave_id IS NOT NULL")).length).toBe(0);
    held.release();
    await starting;
    // p1 went before; p2's message is abandoned before its end (the wave no longer holds them): 3 confirmed again.
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 3, invited: 1 });
    expect(h.smtp.messages.slice(before).map((m) => m.to)).toEqual(["p1@example.com"]);
    expect((await h.store.db.query("SELECT 1 FROM waitlist WHERE invite_wave_id IS NOT NULL")).length).toBe(0);
    const page = await (await call(`/admin/jobs?kind=wave&id=${wave}`, { cookie })).text();
    expect(page).toMatch(
      /<p role="status" class="job-state"><span class="badge tone-muted">Cancelled<\/span> at \d{4}-\d\d-\d\d \d\d:\d\d UTC\. The rest stay unsent\.<\/p>/,
    );
    expect(page).not.toContain(">Resume<");
    expect(page).not.toContain("See who it invited");
  });

  it("with mail off, a wave's file lost with the connection is offered again: new codes, the lost ones void", async () => {
    h.config = readConfig({
      WAITLIST_ADMIN_TOKEN: "t".repeat(40),
      EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
      RATE_LIMIT_MAX: "1000",
    });
    const cookie = cookieOf(await form("/admin/sign-in", { token: "t".repeat(40) }));
    await seed(3);
    const answer = await form("/admin/invite", await confirmation("3", cookie), { cookie });
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // The connection drops: the browser never reads the file.
    await answer.body?.cancel();
    const lost = await hashes();
    expect(await h.store.countByStatus()).toMatchObject({ invited: 3 });
    const home = await (await call("/admin", { cookie })).text();
    const wave = /name="file" value="(\d+)"/.exec(home)?.[1] ?? "";
    expect(home).toContain("A wave of 3 people, invited with e-mail off");
    expect(home).toContain("Download its file again");

    const again = await form("/admin/invite", { file: wave, action: "again" }, { cookie });
    const rows = (await again.text()).split("\r\n");
    expect(rows.map((row) => row.replace(/invite=[\w-]{27}$/, "invite=CODE"))).toEqual([
      "email,name,invite_url",
      "p1@example.com,Person 1,https://app.noosphere.test/signup?invite=CODE",
      "p2@example.com,Person 2,https://app.noosphere.test/signup?invite=CODE",
      "p3@example.com,Person 3,https://app.noosphere.test/signup?invite=CODE",
      "",
    ]);
    const now = await hashes();
    expect(now.filter((hash, i) => hash === lost[i])).toEqual([]);
    expect(await h.store.countByStatus()).toMatchObject({ invited: 3 });
    // Offered until the admin says the file arrived.
    expect(await (await call("/admin", { cookie })).text()).toContain(`name="file" value="${wave}"`);
    expect((await form("/admin/invite", { file: wave, action: "arrived" }, { cookie })).status).toBe(303);
    expect(await (await call("/admin", { cookie })).text()).not.toContain('name="file"');
  });
});
