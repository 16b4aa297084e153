/**
 * People → Import a list over HTTP: an upload's dry run shown as a page with literal counts and changing nothing
 * on the list, its refused lines as a CSV, the confirmed import run as a background job (its e-mails sent, its
 * upload deleted), and a file over 6 MB refused with the CLI named.
 */
import { expect, it } from "vitest";
import { call, h, ORIGIN, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
const CSV = [
  "email,name,created_at",
  "ana@example.com,Ana,2024-01-01T00:00:00Z",
  "ben@example.com,Ben,2024-01-02T00:00:00Z",
  "not-an-address,Cy,",
  "ana@example.com,Ana again,",
  "kim@example.com,Kim,",
  "",
].join("\n");

function upload(
  cookie: string,
  body: string | Uint8Array<ArrayBuffer>,
  fields: Record<string, string> = {},
  origin = ORIGIN,
) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  data.set("file", new File([body], "old-tool.csv", { type: "text/csv" }));
  return call("/admin/people/import", { method: "POST", headers: { Origin: origin }, body: data, cookie });
}
const listed = async () =>
  (await h.store.db.query<{ email: string }>("SELECT email FROM waitlist ORDER BY email")).map((row) => row.email);
const uploads = async () =>
  Number((await h.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM waitlist_import_upload"))[0]?.n);

it("shows the dry run with its counts, changes nothing, then imports in the background on confirmation", async () => {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query("INSERT INTO waitlist (email, status) VALUES ('kim@example.com', 'confirmed')");
  const cookie = await signInByLink();

  const form = await call("/admin/people/import", { cookie });
  expect(form.status).toBe(200);
  expect((await form.text()).toLowerCase()).toContain('enctype="multipart/form-data"');

  const dry = await upload(cookie, CSV, { consent: "ask", source: "" });
  expect(dry.status).toBe(200);
  const page = text(await dry.text());
  expect(page).toContain("What importing old-tool.csv would do");
  expect(page).toContain("old-tool.csv: a CSV with an email column (columns read: email, name,");
  expect(page).toContain("New 2 Already on the list 1 To be suppressed 0 Refused 2");
  expect(page).toContain("old-tool.csv, line 4: invalid address");
  expect(page).toContain("old-tool.csv, line 5: the same address as line 2");
  // Nothing changed on the list; the upload is kept for the confirmation.
  expect(await listed()).toEqual(["kim@example.com"]);
  expect(await h.store.db.query("SELECT id FROM waitlist_import")).toEqual([]);
  expect(await uploads()).toBe(1);

  const hash = /name="file" value="([0-9a-f]{64})"/.exec(await (await upload(cookie, CSV)).text())?.[1] ?? "";
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  const refused = await call(`/admin/people/import/refused.csv?file=${hash}&consent=ask&source=`, { cookie });
  expect(refused.status).toBe(200);
  const lines = (await refused.text()).trim().split("\r\n");
  expect(lines).toHaveLength(3);
  expect(lines[0]).toBe("file,line,reason,row as read");
  expect(lines[1]?.startsWith("old-tool.csv,4,")).toBe(true);
  expect(lines[2]?.startsWith("old-tool.csv,5,")).toBe(true);

  const started = await call("/admin/people/import/start", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
    body: new URLSearchParams({ file: hash, consent: "ask", source: "", confirm: "yes" }).toString(),
    cookie,
  });
  expect(started.status).toBe(303);
  expect(started.headers.get("location")).toMatch(/^\/admin\/jobs\?kind=import&id=\d+&done=started$/);
  expect(await listed()).toEqual(["ana@example.com", "ben@example.com", "kim@example.com"]);
  expect(await uploads()).toBe(0);
  await h.smtp.waitFor("ben@example.com", 1);
  expect(h.smtp.messages.filter((m) => m.to === "ana@example.com" || m.to === "ben@example.com")).toHaveLength(2);
  const job = await call(started.headers.get("location") ?? "", { cookie });
  expect(job.status).toBe(200);
  expect(text(await job.text())).toContain("old-tool.csv");
});

it("refuses a file over 6 MB, pointing to the command line, and keeps nothing", async () => {
  await h.store.db.query("DELETE FROM waitlist_import_upload");
  const cookie = await signInByLink();
  const big = new Uint8Array(6 * 1024 * 1024 + 1).fill(0x61);
  const res = await upload(cookie, big);
  expect(res.status).toBe(413);
  expect(text(await res.text())).toContain("npm run waitlist -- import FILE");
  expect(await uploads()).toBe(0);
});

it("refuses an upload from another site", async () => {
  const cookie = await signInByLink();
  const res = await upload(cookie, CSV, {}, "https://evil.example");
  expect(res.status).toBe(403);
});
