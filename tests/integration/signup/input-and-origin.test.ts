/**
 * Input docs/brief.md does not cover, and posts from other sites: each a 400 or 403 with a clear message, and
 * nothing stored. docs/brief.md's own messages and their order are tested in tests/unit/schema.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { getStore } from "../../../src/server/app/instance";
import { findEntry } from "../../support/find-entry";
import { post } from "../../support/helpers";
import { signupSuite } from "../../support/signup-suite";

const valid = { email: "valid@example.com", termsAccepted: true };
const { call, rowCount: count } = signupSuite("input-");
const form = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body,
  });

let before: number;
beforeEach(async () => {
  before = await count();
});
const expectNothingStored = async () => expect(await count()).toBe(before);
const UNSUPPORTED =
  "Please remove unsupported characters (such as control characters, text-direction overrides or broken emoji).";

describe("characters no field may hold", () => {
  it.each([
    ["an escape sequence in the name", { name: "Eve\u001b[2J" }],
    ["a C1 control (CSI) in the organization", { organization: "ACME\u009b31m" }],
    ["a bell in why", { why: "ring\u0007" }],
    ["a right-to-left override in the name", { name: "\u202Egnp.exe" }],
    ["a bidi isolate in connect", { connect: "a\u2066b" }],
    ["a NUL in why", { why: "\u0000" }],
  ])("%s is a 400", async (_what, fields) => {
    const res = await call(post({ ...valid, ...fields }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: UNSUPPORTED });
    await expectNothingStored();
  });

  it.each([
    ["name", "Name must be a single line."],
    ["organization", "Organization must be a single line."],
  ])("a line break or tab inside %s is a 400: it is a one-line field", async (field, message) => {
    for (const value of ["x\n\nWhy: forged", "a\tb", "a\rb"]) {
      const res = await call(post({ ...valid, [field]: value }));
      expect(await res.json()).toEqual({ error: message });
    }
    await expectNothingStored();
  });

  it("the two long answers keep their line breaks and tabs", async () => {
    const res = await call(post({ ...valid, email: "lines@example.com", why: "one\ntwo\tthree", connect: "a\r\nb" }));
    expect(res.status).toBe(201);
    expect((await findEntry(await getStore(), "lines@example.com"))?.message).toBe(
      "Why: one\ntwo\tthree\n\nConnect: a\r\nb",
    );
  });

  it("docs/brief.md's messages still come first for what they cover", async () => {
    const res = await call(post({ email: "", termsAccepted: true, name: "\u001b" }));
    expect(await res.json()).toEqual({ error: "Please provide your email address." });
  });
});

describe("form posts are read strictly", () => {
  it.each([
    ["invalid UTF-8", "email=a%40example.com&termsAccepted=on&name=%FF%FE", "The form was not sent as valid UTF-8."],
    [
      "a repeated field",
      "email=a%40example.com&termsAccepted=on&termsAccepted=off",
      'The form field "termsAccepted" was sent more than once.',
    ],
    [
      "a repeated name",
      "email=a%40example.com&termsAccepted=on&name=A&name=B",
      'The form field "name" was sent more than once.',
    ],
  ])("%s is a 400 with a clear page", async (_what, body, message) => {
    const res = await call(form(body));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain(message.replaceAll('"', "&quot;"));
    await expectNothingStored();
  });
});

describe("posts from other sites", () => {
  it.each([
    ["JSON with Sec-Fetch-Site: cross-site", () => post(valid, { "Sec-Fetch-Site": "cross-site" })],
    ["JSON from another Origin", () => post(valid, { Origin: "https://evil.example" })],
    ["JSON from Origin null", () => post(valid, { Origin: "null" })],
    [
      "a form from another site",
      () =>
        form("email=junk%40example.com&termsAccepted=on", {
          Origin: "https://evil.example",
          "Sec-Fetch-Site": "cross-site",
        }),
    ],
  ])("%s is a 403, stored nothing", async (_what, request) => {
    const res = await call(request());
    expect(res.status).toBe(403);
    await expectNothingStored();
  });

  it.each([
    ["the site's own page", "origin.own@example.com", { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" }],
    ["a client that sends neither header (curl)", "origin.curl@example.com", {}],
  ])("%s still signs up", async (_what, email, headers: Record<string, string>) => {
    const res = await call(post({ ...valid, email }, headers));
    expect(res.status).toBe(201);
    expect(await count()).toBe(before + 1);
  });
});
