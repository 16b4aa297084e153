import type { Context } from "@netlify/functions";
import { describe, expect, it } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import { readConfig } from "../../../src/server/config";
import { formatEntries } from "../../../src/server/export/rows";
import { backends } from "../../support/backends";
import { inviteGround, ORIGIN, TOKEN } from "../../support/invitations-harness";

describe.each(backends("invite"))("on %s", (_name, available, open) => {
  const { g, seed, statuses, wave, codeOf, redeem, redeemHandler, signupHandler } = inviteGround(available, open);

  it.runIf(available)("redemption: 200 once with the person, then 409; 404, 410, 401 as documented", async () => {
    await seed(["first@example.com", "confirmed"], ["second@example.com", "confirmed"]);
    await wave(2);
    const first = await codeOf("first@example.com");
    const second = await codeOf("second@example.com");

    expect((await redeem({ code: first }, null)).status).toBe(401);
    const wrong = await redeem({ code: first }, `${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="invites"');
    expect((await redeem({ code: first }, TOKEN.slice(0, -1))).status).toBe(401);
    expect(await statuses()).toMatchObject({ "first@example.com": "invited" });

    const ok = await redeem({ code: first });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(ok.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await ok.json()).toEqual({ email: "first@example.com", name: "FIRST" });
    expect(await statuses()).toMatchObject({ "first@example.com": "joined" });
    const [joined] = await g.store.db.query<{ joined: boolean }>(
      "SELECT joined_at IS NOT NULL AS joined FROM waitlist WHERE email = 'first@example.com'",
    );
    expect(joined).toEqual({ joined: true });

    const again = await redeem({ code: first });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "This invite code has already been used." });
    for (const code of ["nope", `${first}x`, "A".repeat(27), 42, null]) {
      expect((await redeem({ code })).status, String(code)).toBe(404);
    }
    expect((await redeem("{not json")).status).toBe(400);
    expect((await redeem({ code: second }, TOKEN, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(415);
    expect((await redeem({ code: "x".repeat(20_000) })).status).toBe(413);
    expect((await redeemHandler(new Request(`${ORIGIN}/api/invites/redeem`))).status).toBe(405);

    await g.store.db.query(
      "UPDATE waitlist SET invite_expires_at = now() - interval '1 second' WHERE email = 'second@example.com'",
    );
    const expired = await redeem({ code: second });
    expect(expired.status).toBe(410);
    expect(await statuses()).toMatchObject({ "second@example.com": "invited" });

    g.config = readConfig({});
    expect((await redeem({ code: second })).status).toBe(404);
  });

  it.runIf(available)("the purge never touches invited or joined people", async () => {
    await seed(
      ["stale@example.com", "pending"],
      ["invited@example.com", "invited"],
      ["joined@example.com", "joined"],
      ["confirmed@example.com", "confirmed"],
    );
    expect(await g.store.purgePending(24, true)).toEqual({ matched: 1, purged: 1 });
    expect(await statuses()).toEqual({
      "invited@example.com": "invited",
      "joined@example.com": "joined",
      "confirmed@example.com": "confirmed",
    });
    expect(await g.store.countByStatus()).toEqual({ total: 3, pending: 0, confirmed: 1, invited: 1, joined: 1 });
  });

  it.runIf(available)("sign-ups keep where they came from: the dialog's attribution, the form's page", async () => {
    await seed();
    const call = (request: Request) =>
      signupHandler(request, createContext(request, "198.51.100.9", new Set()) as Context);
    /** The sign-up function's answer to `body` posted as `type`, with `headers`. */
    const post = (type: string, body: string, headers: Record<string, string> = {}) =>
      call(
        new Request(`${ORIGIN}/api/waitlist`, { method: "POST", headers: { "Content-Type": type, ...headers }, body }),
      );
    const json = (body: Record<string, unknown>) =>
      post("application/json", JSON.stringify({ termsAccepted: true, ...body }));
    const form = (body: string, referer: string) =>
      post("application/x-www-form-urlencoded", body, { Referer: referer });
    const dialog = await json({
      email: "dialog@example.com",
      attribution: {
        source: "newsletter",
        medium: "email",
        campaign: "launch",
        referrer: "news.example.com",
        page: "/product",
      },
    });
    expect(dialog.status).toBe(201);
    const bad = await json({
      email: "bad@example.com",
      attribution: { source: "a\u0007b", medium: "x".repeat(101), campaign: 7, referrer: "not a host", page: "join" },
    });
    expect(bad.status).toBe(201);
    const onPage = await form(
      "email=form%40example.com&termsAccepted=on",
      `${ORIGIN}/join?utm_source=newsletter&utm_medium=email&utm_campaign=spring`,
    );
    expect(onPage.status).toBe(303);
    const elsewhere = await form("email=elsewhere%40example.com&termsAccepted=on", "https://evil.example/join?ref=x");
    expect(elsewhere.status).toBe(303);

    const rows = await g.store.db.query(
      "SELECT email, source, medium, campaign, referrer, page FROM waitlist ORDER BY id",
    );
    expect(rows).toEqual([
      {
        email: "dialog@example.com",
        source: "newsletter",
        medium: "email",
        campaign: "launch",
        referrer: "news.example.com",
        page: "/product",
      },
      { email: "bad@example.com", source: null, medium: null, campaign: null, referrer: null, page: null },
      {
        email: "form@example.com",
        source: "newsletter",
        medium: "email",
        campaign: "spring",
        referrer: null,
        page: "/join",
      },
      { email: "elsewhere@example.com", source: null, medium: null, campaign: null, referrer: null, page: null },
    ]);
    expect((await g.store.breakdown(14, 5)).source).toEqual([
      { value: "newsletter", count: 2 },
      { value: null, count: 2 },
    ]);
    const csv = await formatEntries(await g.store.list(), "csv");
    expect(csv.split("\r\n")[0]).toBe(
      "created_at,name,email,message,status,invited_at,joined_at,source,medium,campaign,referrer,page,organization,why,connect,terms_version,confirmed_at,referral_code,referred_by,referrals",
    );
    // …then the share code (the database's), no referrer, no referrals.
    expect(csv).toMatch(
      /,dialog@example\.com,,confirmed,,,newsletter,email,launch,news\.example\.com,\/product,,,,d32ad6715e8da973,,[0-9a-z]{10},,0\r\n/,
    );
  });
});
