/**
 * For the people who run it: the export endpoint, form posts without JavaScript, preview dry runs, the CLI.
 * Longer than 150 lines: together they are the operators' whole surface. Slow: the CLI runs in child processes.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import handler from "../../netlify/functions/waitlist";
import exportHandler from "../../netlify/functions/waitlist-export";
import { closeStore, getStore } from "../../src/server/app/instance";
import { resetConfig } from "../../src/server/config";
import { findEntry } from "../support/find-entry";
import { fakeContext, migratedDataDir, post, releaseEmbeddedStore, useEmbeddedStore } from "../support/helpers";

const run = promisify(execFile);
const TOKEN = "test-admin-token-0123456789abcdef";
const dataDir = migratedDataDir("operators-");
const exportRequest = (token?: string) =>
  new Request("http://localhost/api/waitlist/export", { headers: token ? { Authorization: `Bearer ${token}` } : {} });
const formPost = (fields: Record<string, string>) =>
  new Request("http://localhost/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

beforeAll(() => useEmbeddedStore("operators-", 100_000, dataDir), 60_000);
afterAll(async () => {
  vi.stubEnv("WAITLIST_ADMIN_TOKEN", "");
  await releaseEmbeddedStore();
});

describe("sign-up by form post (no JavaScript)", () => {
  it("303 to /join/thanks and stores the entry", async () => {
    const res = await handler(
      formPost({ name: "Form User", email: " form@example.com ", why: "No JS", termsAccepted: "true", homepage: "" }),
      fakeContext(),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/join/thanks");
    expect(await findEntry(await getStore(), "form@example.com")).toEqual({
      name: "Form User",
      email: "form@example.com",
      message: "Why: No JS",
    });
  });

  it("400 with a small HTML page showing docs/brief.md's message, escaped, and a link back", async () => {
    const res = await handler(
      formPost({ email: "form2@example.com", name: "<b>x</b>".repeat(20), termsAccepted: "on" }),
      fakeContext(),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("Name must be less than 100 characters");
    expect(html).toContain('href="/join"');
    expect(html).not.toContain("<b>");
    const unchecked = await handler(formPost({ email: "form3@example.com" }), fakeContext());
    expect(await unchecked.text()).toContain("Please accept the Terms of Service to continue.");
  });

  it("a filled honeypot redirects like a success and stores nothing", async () => {
    const res = await handler(
      formPost({ email: "formbot@example.com", termsAccepted: "on", homepage: "x" }),
      fakeContext(),
    );
    expect(res.status).toBe(303);
    expect(await findEntry(await getStore(), "formbot@example.com")).toBeNull();
  });
});

describe("deploy previews", () => {
  const previewSignup = { email: "preview@example.com", termsAccepted: true };
  const preview = (ip: string) => ({ ...fakeContext(ip), deploy: { context: "deploy-preview" } }) as unknown as Context;

  it("validate but never write unless ALLOW_PREVIEW_WRITES=1", async () => {
    const store = await getStore();
    const before = await store.count();
    const res = await handler(post(previewSignup), preview("10.9.9.9"));
    expect(res.status).toBe(201);
    expect(res.headers.get("x-waitlist-dry-run")).toBe("deploy-preview");
    expect(await store.count()).toBe(before);

    vi.stubEnv("ALLOW_PREVIEW_WRITES", "1");
    resetConfig();
    try {
      const allowed = await handler(post(previewSignup), preview("10.9.9.9"));
      expect(allowed.status).toBe(201);
      expect(await store.count()).toBe(before + 1);
    } finally {
      vi.stubEnv("ALLOW_PREVIEW_WRITES", "");
      resetConfig();
    }
  });
});

describe("GET /api/waitlist/export", () => {
  it("does not exist without WAITLIST_ADMIN_TOKEN", async () => {
    vi.stubEnv("WAITLIST_ADMIN_TOKEN", "");
    resetConfig();
    expect((await exportHandler(exportRequest(TOKEN))).status).toBe(404);
  });

  it("401 without or with a wrong token; CSV with no-store for the right one", async () => {
    vi.stubEnv("WAITLIST_ADMIN_TOKEN", TOKEN);
    resetConfig();
    for (const token of [undefined, "wrong", `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const res = await exportHandler(exportRequest(token));
      expect(res.status, String(token)).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
    }
    const res = await exportHandler(exportRequest(TOKEN));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const csv = await res.text();
    expect(csv.split("\r\n")[0]).toBe(
      "created_at,name,email,message,status,invited_at,joined_at,source,medium,campaign,referrer,page,organization,why,connect,terms_version,confirmed_at,referral_code,referred_by,referrals",
    );
    expect(csv).toContain("form@example.com");
    // A pending entry is listed with its status, and left out with ?confirmed-only.
    await (await getStore()).add({ name: null, email: "waiting@example.com", message: null }, "pending");
    expect(await (await exportHandler(exportRequest(TOKEN))).text()).toMatch(
      /,waiting@example\.com,,pending,,,,,,,,,,,,,[0-9a-z]{10},,0\r\n/,
    );
    const confirmedOnly = await exportHandler(
      new Request("http://localhost/api/waitlist/export?confirmed-only", {
        headers: { Authorization: `Bearer ${TOKEN}` },
      }),
    );
    const rows = (await confirmedOnly.text()).trim().split("\r\n").slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => /,confirmed(,[^,]*){15}$/.test(row))).toBe(true);
  });
});

describe("npm run waitlist (CLI) on the embedded database", () => {
  const cli = (...args: string[]) =>
    run("node_modules/.bin/node", ["--import", "tsx", "scripts/waitlist.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    });

  it("refuses, clearly and without change, while another process holds the database", async () => {
    const failure = await cli("count").then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("is in use by another process");
    expect(failure?.stderr).toContain("Nothing was changed.");
  });

  it("counts and exports once the owner has closed it", async () => {
    const store = await getStore();
    await store.add({ name: '=HYPERLINK("x")', email: "csv@example.com", message: 'Why: a, "b"\nc' });
    const { total, confirmed, pending, invited, joined } = await store.countByStatus();
    await closeStore();

    expect(pending).toBeGreaterThan(0);
    const count = await cli("count");
    expect(count.stdout).toContain(`Waitlist: ${total} sign-ups`);
    expect(count.stdout).toMatch(
      new RegExp(`pending +${pending}\\n +confirmed +${confirmed}\\n +invited +${invited}\\n +joined +${joined}\\n`),
    );
    expect(count.stdout.match(/^ {2}\d{4}-\d{2}-\d{2} /gm)).toHaveLength(14);

    const csv = (await cli("export")).stdout;
    expect(
      csv.startsWith(
        "created_at,name,email,message,status,invited_at,joined_at,source,medium,campaign,referrer,page,organization,why,connect,terms_version,confirmed_at,referral_code,referred_by,referrals\r\n",
      ),
    ).toBe(true);
    // …then the share code the database gave the row, no referrer, no referrals.
    expect(csv).toMatch(
      /,"'=HYPERLINK\(""x""\)",csv@example\.com,"Why: a, ""b""\nc",confirmed,,,,,,,,,,,,,[0-9a-z]{10},,0\r\n/,
    );
    expect(csv).toMatch(/,waiting@example\.com,,pending,,,,,,,,,,,,,[0-9a-z]{10},,0\r\n/);
    const confirmedOnly = (await cli("export", "--confirmed-only")).stdout;
    expect(confirmedOnly).toContain("csv@example.com");
    expect(confirmedOnly).not.toContain("waiting@example.com");

    const json = JSON.parse((await cli("export", "--format", "json")).stdout) as Array<{ email: string }>;
    expect(json).toHaveLength(total);
    expect((await cli("export", "--since", "2999-01-01")).stdout).toBe(
      "created_at,name,email,message,status,invited_at,joined_at,source,medium,campaign,referrer,page,organization,why,connect,terms_version,confirmed_at,referral_code,referred_by,referrals\r\n",
    );

    const bad = await cli("export", "--since", "yesterday").catch((error: { code: number; stderr: string }) => error);
    expect(bad).toMatchObject({ code: 2 });
    const help = await cli("--help");
    expect(help.stdout).toContain("Usage: npm run waitlist -- <command>");
  }, 60_000);

  it("purge-pending: a dry run without --yes, deletes with it, and only old pending sign-ups", async () => {
    const store = await getStore();
    await store.add({ name: null, email: "stale@example.com", message: null }, "pending");
    await store.db.query(
      "UPDATE waitlist SET created_at = now() - interval '15 days' WHERE email = 'stale@example.com'",
    );
    await store.add({ name: null, email: "fresh@example.com", message: null }, "pending");
    const before = await store.count();
    await closeStore();

    const usage = await cli("purge-pending").catch((error: { code: number; stderr: string }) => error);
    expect(usage).toMatchObject({ code: 2 });
    expect((usage as { stderr: string }).stderr).toContain("--older-than");
    const tooSoon = await cli("purge-pending", "--older-than", "6d", "--yes").catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(tooSoon).toMatchObject({ code: 2 });
    expect((tooSoon as { stderr: string }).stderr).toBe(
      'waitlist: --older-than must be at least 7d (168h), not "6d": a confirmation link works for 7 days, and nobody whose link still works is purged. Nothing was changed.\n',
    );
    const dry = await cli("purge-pending", "--older-than", "14d");
    expect(dry.stdout).toContain("Dry run: would delete 1 pending sign-up untouched for 14d");
    expect(dry.stdout).toContain("--yes");
    const done = await cli("purge-pending", "--older-than", "336h", "--yes");
    expect(done.stdout).toContain("Deleted 1 of 1 pending sign-up");

    const after = await getStore();
    expect(await after.count()).toBe(before - 1);
    expect(await findEntry(after, "stale@example.com")).toBeNull();
    expect(await findEntry(after, "fresh@example.com")).not.toBeNull();
    expect(await findEntry(after, "waiting@example.com")).not.toBeNull();
    await closeStore();
  }, 60_000);
});
