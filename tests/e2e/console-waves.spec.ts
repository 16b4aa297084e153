/**
 * Letting people in, checked, in a real browser at both sizes against a server of its own and a real SMTP server:
 * a wave's preview names whom it would invite (the first 20 in line, each with when they signed up and where from,
 * and how many more), with a screenshot (Playwright's comparison); the wave goes out; the audit log says what it
 * did by its size and links to the People list filtered to the wave, which lists exactly whom it invited. Axe on
 * every page.
 */
import { ADMIN, consoleEnv, expectConsolePage, expectLook, region, signIn } from "./console-support";
import { expect, test } from "./fixtures";

/** 23 confirmed people, two hours apart from March 1, 2026 (UTC), from a newsletter, Hacker News or nowhere known. */
const SOURCES = ["newsletter", "hn", null] as const;
const email = (n: number) => `p${String(n).padStart(2, "0")}@example.com`;

test("a wave's preview names whom it invites; once sent, the log links to the list filtered to it", async ({
  page,
  ownServer,
  smtp,
}) => {
  test.setTimeout(90_000);
  // Referrals move people up: the preview says whether any in this wave did, in plain words.
  const server = await ownServer(consoleEnv(smtp, { REFERRAL_PLACES: "2" }), async (store) => {
    for (let n = 1; n <= 23; n++) {
      await store.db.query(
        "INSERT INTO waitlist (email, status, source, created_at) VALUES ($1, 'confirmed', $2, $3)",
        [email(n), SOURCES[n % 3], new Date(Date.UTC(2026, 2, 1, 2 * n)).toISOString()],
      );
    }
  });
  await signIn(page, smtp, server.url);
  await page.getByLabel("How many").fill("22");
  await page.getByRole("button", { name: "Preview" }).click();

  // The preview: who, when, from where; the rest counted.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invite 22 people?");
  const who = region(page, "Who it invites");
  await expect(who.locator("p").first()).toHaveText(
    "The next 22 people in line, who signed up between March 1, 2026 and March 2, 2026 (UTC). No one in this wave moved up by referrals (each counted referral moves its referrer 2 places).",
  );
  await expect(who.locator("thead th")).toHaveText(["Person", "Signed up (UTC)", "Source"]);
  const rows = who.locator("tbody tr");
  await expect(rows).toHaveCount(20);
  await expect(rows.nth(0).locator("td")).toHaveText(["p01@example.com", "2026-03-01 02:00", "hn"]);
  await expect(rows.nth(1).locator("td")).toHaveText(["p02@example.com", "2026-03-01 04:00", "None recorded"]);
  await expect(rows.nth(2).locator("td")).toHaveText(["p03@example.com", "2026-03-01 06:00", "newsletter"]);
  await expect(rows.nth(19).locator("td")).toHaveText(["p20@example.com", "2026-03-02 16:00", "None recorded"]);
  await expect(who.locator("p").last()).toHaveText("And 2 more people.");
  await expectConsolePage(page);
  await expectLook(page, "wave-preview.png");
  expect(smtp.messages.map((m) => m.to)).toEqual([ADMIN]);

  // Sent: 22 invitations, the 23rd left waiting.
  await page.getByRole("button", { name: "Invite 22 people" }).click();
  await expect
    .poll(() => smtp.messages.filter((m) => m.to.endsWith("@example.com")).length, { timeout: 30_000 })
    .toBe(22);

  // The log says what the wave did, by its size, and links to whom it invited.
  const nav = page.getByRole("navigation", { name: "Console" });
  const entry = region(page, "What the team did, newest first").locator("tbody tr").first();
  await expect(async () => {
    await nav.getByRole("link", { name: "Audit log" }).click();
    await expect(entry.locator(".said")).toHaveText("Invited 22 people in a wave.", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await entry.getByRole("link", { name: "Who it invited" }).click();
  await expect(page).toHaveURL(/\/admin\/people\?wave=\d+$/);
  const listed = page.getByRole("link", { name: /^p\d{2}@example\.com$/ });
  await expect(listed).toHaveCount(22);
  await expect(page.getByRole("link", { name: email(23) })).toHaveCount(0);
  await expectConsolePage(page);
});
