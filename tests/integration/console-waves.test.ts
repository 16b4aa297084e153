import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../src/server/config";
import { createConsoleHandler } from "../../src/server/console/handler";
import { call, cookieOf, form, h, handler, openConsoleHarness, signInByLink } from "./console-harness";
import { startSmtp } from "./smtp";

openConsoleHarness();

describe("downloads and waves within Netlify's limits", () => {
  /** The wave's clock: the slow SMTP server below moves it on 100 ms an e-mail; a slice is 250 ms of it. */
  let clock = 0;
  const small = createConsoleHandler({
    store: async () => h.store,
    config: () => h.config,
    partSize: { bytes: 1_000_000_000, rows: 4 },
    waveSlice: { ms: 250, now: () => clock },
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

  it("a wave that cannot finish in its slice answers how far it got, and Continue goes on to the end", async () => {
    const cookie = await signInByLink();
    await seed(10);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A slow SMTP server: each e-mail takes 100 ms of the wave's clock; the fourth waits for the test.
    const slow = await startSmtp({
      beforeAnswer: async (count) => {
        clock += 100;
        if (count === 4) await held;
      },
    });
    h.config = { ...h.config, mail: { smtpUrl: slow.url, from: "Noosphere <hello@noosphere.test>" } };
    try {
      expect(await (await form("/admin/invite", { next: "1001" }, { cookie })).text()).toContain(
        "Choose how many to invite, from 1 to 1000",
      );
      expect((await form("/admin/invite", { wave: "x1", confirm: "yes" }, { cookie })).status).toBe(400);

      const first = await form("/admin/invite", await confirmation("10", cookie), { cookie });
      expect(first.status).toBe(200);
      const page = await first.text();
      expect(page).toContain('<p role="status">Invited 3 so far. 7 still to go.</p>');
      expect(page).toContain('<progress id="wave-progress" max="10" value="3">3 of 10</progress>');
      const wave = /name="wave" value="(\d+)"/.exec(page)?.[1] ?? "";
      expect(await h.store.countByStatus()).toMatchObject({ confirmed: 7, invited: 3 });

      // Continue, clicked twice: the second click finds the wave taken by the first, and sends nothing.
      const going = form("/admin/invite", { wave }, { cookie });
      await slow.waitFor("p4@example.com");
      const twice = await form("/admin/invite", { wave }, { cookie });
      expect(twice.status).toBe(409);
      expect(await twice.text()).toContain("This wave is not waiting to go on");
      release();
      expect(await (await going).text()).toContain('<p role="status">Invited 6 so far. 4 still to go.</p>');

      const third = await form("/admin/invite", { wave }, { cookie });
      expect(await third.text()).toContain('<p role="status">Invited 9 so far. 1 still to go.</p>');
      const last = await form("/admin/invite", { wave }, { cookie });
      expect(last.status).toBe(303);
      expect(last.headers.get("location")).toBe(`/admin?wave=${wave}`);
      expect(await (await call(last.headers.get("location") ?? "", { cookie })).text()).toContain(
        '<p class="notice" role="status">Invited 10 people.</p>',
      );
      expect(await h.store.countByStatus()).toMatchObject({ confirmed: 0, invited: 10 });
      expect(slow.messages.map((m) => m.to)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i + 1}@example.com`));
      // A Continue after the end sends nothing.
      expect((await form("/admin/invite", { wave }, { cookie })).status).toBe(409);
      expect(slow.messages).toHaveLength(10);
    } finally {
      release();
      await slow.close();
    }
  });

  it("notices come from the wave's row: a count in the address, or an unknown wave, shows nothing", async () => {
    const cookie = await signInByLink();
    await seed(2);
    const made = await form("/admin/invite", await confirmation("1", cookie), { cookie });
    const location = made.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\?wave=\d+$/);
    const notice = async (path: string) =>
      /<p class="notice" role="status">([^<]*)<\/p>/.exec(await (await call(path, { cookie })).text())?.[1] ?? null;
    expect(await notice(location)).toBe("Invited 1 person.");
    expect(await notice("/admin?invited=500")).toBeNull();
    expect(await notice("/admin?invited=500&refused=0&stopped=1")).toBeNull();
    expect(await notice("/admin?wave=999999")).toBeNull();
    expect(await notice("/admin?wave=1x")).toBeNull();
    // The form's max and the server's cap are one constant.
    expect(await (await call("/admin", { cookie })).text()).toContain('name="next" type="number" min="1" max="1000"');
    expect((await form("/admin/invite", { next: "1001" }, { cookie })).status).toBe(400);
  });

  it("two confirmations of one preview at once are one wave: two invited, both answers name it", async () => {
    const cookie = await signInByLink();
    await seed(5);
    const fields = await confirmation("2", cookie);
    // The first holds at its first RCPT TO, so the second arrives while the wave is under way.
    const held = h.smtp.hold("rcpt", "p1@example.com");
    const first = form("/admin/invite", fields, { cookie });
    await held.reached;
    const second = await form("/admin/invite", fields, { cookie });
    held.release();
    const answers = [await first, second];
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    const [a, b] = answers.map((answer) => answer.headers.get("location"));
    expect(a).toMatch(/^\/admin\?wave=\d+$/);
    expect(b).toBe(a);
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 3, invited: 2 });
    expect(await (await call(a ?? "", { cookie })).text()).toContain("Invited 2 people.");
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
    expect(home).toContain(`Wave ${wave}: 3 people invited with mail off.`);
    expect(home).toContain("Download this wave's file again");

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
