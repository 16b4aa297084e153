/**
 * What questions.spec.ts works with: the questions its own build asks (two choice questions and a text one), the
 * people its server starts with (their answers as the sign-up stores them), and the steps it takes more than once:
 * the list as exported, a refused /join made again where axe can run, a state shot at the viewport's width.
 */
import type { Browser, Locator, Page } from "@playwright/test";
import type { Store } from "../../src/server/app/store";
import { E2E_ADMIN_TOKEN } from "./constants";
import { test as base, expect, expectNoAxeViolations } from "./fixtures";
import { contextLike } from "./referrals-support";

/** questions.json of the build under test, as a team writes it. */
export const QUESTIONS = [
  {
    id: "team-size",
    label: "How big is your team?",
    type: "choice",
    options: ["Just me", "2–10", "11–50", "50+"],
    required: true,
  },
  { id: "use", label: "What will you use it for?", type: "choice", options: ["Research", "Writing", "Teaching"] },
  { id: "role", label: "What is your role?", type: "text", required: true, max: 60 },
];

/** [name, status, said yes to updates, team-size, use], a day apart from 1 March 2026 (older than any sign-up). */
const PEOPLE: Array<[string, string, boolean | null, string, string]> = [
  ["ana", "confirmed", true, "50+", "Research"],
  ["ben", "confirmed", true, "11–50", "Research"],
  ["cal", "confirmed", false, "50+", "Writing"],
  ["dot", "pending", null, "50+", "Research"],
  ["eve", "confirmed", true, "Just me", "Teaching"],
];
export const SEEDED = PEOPLE.map(([name]) => `${name}@example.com`);

export async function seed(store: Store) {
  for (const [i, [name, status, consent, size, use]] of PEOPLE.entries()) {
    await store.db.query(
      `INSERT INTO waitlist (email, status, updates_consent, updates_consent_at, choices, created_at)
       VALUES ($1, $2, $3, CASE WHEN $3::boolean THEN now() END, $4::jsonb,
         timestamptz '2026-03-01T12:00:00Z' + $5 * interval '1 day')`,
      [`${name}@example.com`, status, consent, JSON.stringify({ "team-size": size, use }), i],
    );
  }
}

/** The whole list as `GET /api/waitlist/export` gives it (CSV): its header and its rows, each split at commas. */
export async function exported(site: string): Promise<{ header: string; rows: Map<string, string> }> {
  const res = await fetch(`${site}/api/waitlist/export`, { headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  const [header = "", ...lines] = (await res.text()).split("\r\n").filter(Boolean);
  // Each row by its address (the third column: nothing before it here holds a comma).
  return { header, rows: new Map(lines.map((line) => [line.split(",")[2] ?? "", line])) };
}

/**
 * A shot of the page as it is now, in the test's output folder, named for the state and the viewport's width: the
 * whole page, or (`inView`) what is on the screen, that element scrolled into it (a dialog over a long page).
 */
export async function shoot(page: Page, name: string, inView?: Locator) {
  const width = page.viewportSize()?.width ?? 0;
  await inView?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: base.info().outputPath(`${name}-${width}.png`), fullPage: !inView });
}

/**
 * Axe on /join refused, as a browser without JavaScript shows it: axe cannot run where scripts are off, so the same
 * form is sent again from a context whose pages refuse every script (`script-src 'none'` added to each), and the
 * page the server answers it must be `refused`, the one the browser without JavaScript was given.
 */
export async function expectRefusedJoinAccessible(
  browser: Browser,
  noScript: Page,
  refused: string,
  send: (page: Page) => Promise<void>,
) {
  const context = await contextLike(browser, noScript, true);
  const page = await context.newPage();
  let answered = "";
  await page.route("**/*", async (route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch({ maxRedirects: 0 });
    if (route.request().method() === "POST") answered = await response.text();
    const headers = response.headers();
    const csp = headers["content-security-policy"];
    headers["content-security-policy"] = csp ? `${csp}, script-src 'none'` : "script-src 'none'";
    await route.fulfill({ response, headers });
  });
  await page.goto(new URL("/join", noScript.url()).href);
  await send(page);
  await expect(page.getByRole("alert")).toBeVisible();
  expect(answered).toBe(refused);
  await expectNoAxeViolations(page);
  await context.close();
}
