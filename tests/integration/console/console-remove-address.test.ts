/**
 * The console's removal takes an address as every other form that takes one alone does (givenAddress in
 * src/lib/waitlist/rules.ts): something that is not an address is refused with words saying so, and nothing is
 * removed or audited; an address is asked about, then removed.
 */
import { expect, it } from "vitest";
import { createAuditLog } from "../../../src/server/audit";
import { form, h, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const listed = async () =>
  (await h.store.db.query<{ email: string }>("SELECT email FROM waitlist ORDER BY email")).map((row) => row.email);

it("refuses what is not an address, says which, and changes nothing", async () => {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query("INSERT INTO waitlist (email, status) VALUES ('kim@example.com', 'confirmed')");
  const cookie = await signInByLink();
  const before = (await createAuditLog(h.store.db).page(1, null))[0]?.id ?? 0;

  for (const [email, said] of [
    ["kim@example", "That is not an e-mail address."],
    ["kim example.com", "That is not an e-mail address."],
    [`${"k".repeat(250)}@example.com`, "That is not an e-mail address."],
    ["   ", "No address was given."],
  ] as const) {
    const res = await form("/admin/remove", { email, confirm: "yes" }, { cookie });
    expect(res.status).toBe(400);
    expect(text(await res.text())).toContain(said);
  }
  expect(await listed()).toEqual(["kim@example.com"]);
  expect((await createAuditLog(h.store.db).page(1, null))[0]?.id ?? 0).toBe(before);

  // An address, spaces around it, is asked about first, then removed.
  const asked = await form("/admin/remove", { email: "  kim@example.com " }, { cookie });
  expect(asked.status).toBe(200);
  expect(text(await asked.text())).toContain("kim@example.com");
  const removed = await form("/admin/remove", { email: " kim@example.com", confirm: "yes" }, { cookie });
  expect(removed.status).toBe(303);
  expect(removed.headers.get("location")).toBe("/admin?removed=1");
  expect(await listed()).toEqual([]);
});
