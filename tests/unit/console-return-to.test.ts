/**
 * Where signing in leads (src/server/console/sign-in/return-to.ts): a console path of this site as asked, anything else
 * the Overview. The target comes from a form field or an e-mailed link anyone can write, so every trick is a row.
 */
import { expect, it } from "vitest";
import { returnTarget } from "../../src/server/console/sign-in/return-to";

const CASES: Array<[asked: string | null, lands: string]> = [
  // Console pages, as asked (a trailing slash and a fragment dropped, dot segments resolved).
  ["/admin", "/admin"],
  ["/admin/people", "/admin/people"],
  ["/admin/people?status=pending&q=ada", "/admin/people?status=pending&q=ada"],
  ["/admin/person?id=12", "/admin/person?id=12"],
  ["/admin/webhooks/", "/admin/webhooks"],
  ["/admin/jobs?kind=update&id=3", "/admin/jobs?kind=update&id=3"],
  ["/admin/funnel.csv?days=30", "/admin/funnel.csv?days=30"],
  ["/admin/export/part?format=csv&after=0", "/admin/export/part?format=csv&after=0"],
  ["/admin/people#list", "/admin/people"],
  ["/admin/./people", "/admin/people"],
  ["/admin/people?next=//evil.test", "/admin/people?next=//evil.test"],
  // Nothing asked: the Overview.
  [null, "/admin"],
  ["", "/admin"],
  // Another site, however written.
  ["https://evil.test/admin/people", "/admin"],
  ["http://localhost:4329/admin/people", "/admin"],
  ["//evil.test/admin", "/admin"],
  ["///evil.test/admin", "/admin"],
  ["/\\evil.test/admin", "/admin"],
  ["\\\\evil.test/admin", "/admin"],
  ["javascript:alert(1)", "/admin"],
  ["admin/people", "/admin"],
  ["%2F%2Fevil.test", "/admin"],
  ["/%2F%2Fevil.test", "/admin"],
  ["/%5Cevil.test", "/admin"],
  ["/\tevil.test", "/admin"],
  ["/\n/evil.test", "/admin"],
  ["/ /evil.test", "/admin"],
  // Out of the console, or encoded to look in it.
  ["/", "/admin"],
  ["/join", "/admin"],
  ["/administrator", "/admin"],
  ["/admin-evil", "/admin"],
  ["/admin/../join", "/admin"],
  ["/admin/%2e%2e/join", "/admin"],
  ["/admin/..%2F..%2Fjoin", "/admin"],
  ["/admin%2F..%2Fjoin", "/admin"],
  ["/admin/people%5C..%5C..%5Cjoin", "/admin"],
  // The sign-in's own pages.
  ["/admin/sign-in", "/admin"],
  ["/admin/sign-in/confirm?token=abc", "/admin"],
  ["/admin/sign-out", "/admin"],
  // Longer than any console address.
  [`/admin/people?q=${"a".repeat(1100)}`, "/admin"],
];

it.each(CASES)("%j leads to %j", (asked, lands) => {
  expect(returnTarget(asked)).toBe(lands);
});
