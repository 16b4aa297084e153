/**
 * The team's questions end to end below the browser, with questions.json replaced for this file (vi.mock of
 * questions.ts, which reads the one file a new question touches): refused without a required answer (JSON and /join's form, nothing stored),
 * stored by question id (choices in clear, text sealed under DATA_KEY), shown on the person page, a column per
 * question in the export, `answers` in the webhook payload, and a removed question's answers still readable.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createStore, type Store } from "../../src/server/app/store";
import { readConfig } from "../../src/server/config";
import { personPage } from "../../src/server/console/person/person";
import { parseDataKey } from "../../src/server/data-key";
import { openPgliteDb } from "../../src/server/db/pglite";
import { formatEntries } from "../../src/server/export/rows";
import { createWaitlistHandler } from "../../src/server/signup/handler";
import { createWebhookStore, eventBody } from "../../src/server/webhooks";
import { fakeContext, migratedDataDir, post } from "../support/helpers";

// In the slow project, whose files each run in a fresh module graph (the fast project shares one per worker, where a
// mock would leak into the next file).
vi.mock("../../src/lib/waitlist/questions", async (original) => {
  const real = await original<typeof import("../../src/lib/waitlist/questions")>();
  const { SIGNUP_QUESTIONS } = await import("../support/questions");
  return { ...real, QUESTIONS: real.withDefaults(SIGNUP_QUESTIONS) };
});

const config = readConfig({ RATE_LIMIT_MAX: "100000" });
const keys = { current: parseDataKey(Buffer.alloc(32, 9).toString("base64")), previous: null };
let store: Store;
const handler = createWaitlistHandler({ store: async () => store, config: () => config });
const call = (request: Request) => handler(request, fakeContext());
const base = { email: "ada@example.com", termsAccepted: true };
const form = (body: string) =>
  new Request("http://localhost/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
const row = async (email: string) => {
  const rows = await store.list();
  return rows.find((r) => r.email === email);
};

beforeAll(async () => {
  store = createStore(await openPgliteDb(migratedDataDir("questions-")), keys);
  await createWebhookStore(store.db).setEnabled(true);
}, 60_000);
afterAll(() => store?.close());

describe("the team's questions, asked at sign-up", () => {
  it("400 naming the question's label when a required one is left out; nothing is stored", async () => {
    const res = await call(post({ ...base, answers: { tools: ["Notion"] } }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Please answer "How big is your team?"' });
    const notOption = await call(post({ ...base, answers: { "team-size": "1000" } }));
    expect(await notOption.json()).toEqual({ error: 'Please choose one of the options for "How big is your team?"' });
    const page = await call(form("email=ada%40example.com&termsAccepted=on&answer%3Atools%3A0=Notion"));
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('<p role="alert">Please answer &quot;How big is your team?&quot;</p>');
    expect(await store.count()).toBe(0);
  });

  it("stores each answer by question id: choices in clear, text sealed with the rest", async () => {
    const answers = { "team-size": "50+", tools: ["Roam", "Notion"], role: "CTO" };
    expect((await call(post({ ...base, answers }))).status).toBe(201);
    const [stored] = await store.db.query<Record<string, unknown>>(
      "SELECT answers, choices, sealed IS NOT NULL AS sealed FROM waitlist",
    );
    expect(stored).toEqual({ answers: null, choices: { "team-size": "50+", tools: ["Notion", "Roam"] }, sealed: true });
    expect((await row("ada@example.com"))?.answers).toEqual({ role: "CTO" });
  });

  it("takes /join's form without JavaScript: a radio, ticked boxes and a text field", async () => {
    const body = [
      "email=grace%40example.com",
      "termsAccepted=on",
      "answer%3Ateam-size=2%E2%80%9310",
      "answer%3Atools%3A1=Obsidian",
      "answer%3Atools%3A0=Notion",
      "answer%3Arole=",
    ].join("&");
    const res = await call(form(body));
    expect(res.status).toBe(303);
    const grace = await row("grace@example.com");
    expect([grace?.choices, grace?.answers]).toEqual([{ "team-size": "2–10", tools: ["Notion", "Obsidian"] }, null]);
  });

  it("exports a column per question, headed by its id; a multiple answer joined by '; '", async () => {
    const csv = await formatEntries(await store.list(), "csv");
    const [header, ada, grace] = csv.split("\r\n");
    expect(header?.endsWith(",referrals,team-size,tools,role,answers_no_longer_asked")).toBe(true);
    expect(ada?.endsWith(',0,50+,"Notion; Roam",CTO,')).toBe(true);
    expect(grace?.endsWith(',0,2–10,"Notion; Obsidian",,')).toBe(true);
  });

  it("neutralises a formula in an answer, as every other cell", async () => {
    await call(post({ ...base, email: "eve@example.com", answers: { "team-size": "Just me", role: "=1+1" } }));
    const csv = await formatEntries(await store.list(), "csv");
    expect(csv).toContain(",Just me,,'=1+1,\r\n");
  });

  it("sends the answers in the waitlist.signed_up webhook, opened from the seal", async () => {
    const [event] = await store.db.query<{ person: Record<string, unknown>; waitlist_id: number; type: string }>(
      "SELECT type, waitlist_id, person FROM waitlist_webhook_event ORDER BY occurred_at, id LIMIT 1",
    );
    const body = JSON.parse(
      eventBody(
        {
          id: "msg_1",
          type: String(event?.type),
          waitlistId: Number(event?.waitlist_id),
          occurredAt: "2026-11-29T00:00:00.000Z",
          person: event?.person ?? null,
          attempts: 0,
        },
        keys,
      ),
    );
    expect(body.type).toBe("waitlist.signed_up");
    expect(body.data.answers).toEqual({ "team-size": "50+", tools: ["Notion", "Roam"], role: "CTO" });
  });

  it("shows the answers on the person page under their labels; a removed question's marked", async () => {
    await store.db.query(
      `UPDATE waitlist SET choices = choices || '{"budget": "Large"}'::jsonb WHERE choices @> '{"team-size": "50+"}'`,
    );
    const [ada] = await store.db.query<{ id: number }>(`SELECT id FROM waitlist WHERE choices ? 'budget'`);
    const visit = { store, config, admin: "admin@example.com", origin: "http://localhost", mailer: null, fields: {} };
    const html = await (await personPage(visit, String(ada?.id))).text();
    expect(html).toMatch(/<dt>How big is your team\?<\/dt><dd>50\+<\/dd>/);
    expect(html).toMatch(/<dt>Which tools do you use\?<\/dt><dd>Notion; Roam<\/dd>/);
    expect(html).toMatch(/<dt>What is your role\?<\/dt><dd>CTO<\/dd>/);
    expect(html).toMatch(/<dt>budget \(no longer asked\)<\/dt><dd>Large<\/dd>/);
    const csv = await formatEntries(await store.list(), "csv");
    expect(csv).toContain(',CTO,"{""budget"":""Large""}"\r\n');
  });
});
