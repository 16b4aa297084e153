/**
 * The team's own questions (issue 50) in a real browser, through a build of the site whose questions.json asks two
 * choice questions and a text one (questions-support.ts; built once for the file, in a temporary copy of the site:
 * tests/support/questions-site.ts), at 375 and 1280 px, each width on a server of its own with a real SMTP server
 * and a webhook receiver on 127.0.0.1. A sign-up in the dialog and one on /join without JavaScript are refused
 * without a required answer (the message names the question, its control is marked, nothing is stored), then taken;
 * the answers are on the person's console page, a column each in the export and `answers` in the waitlist.signed_up
 * webhook; an update written to everyone matching one answer and a wave inviting everyone matching another reach
 * exactly the matching people, once. Axe on each new state; a shot of each in the test's output folder. Below the
 * browser: tests/slow/questions-answers.test.ts and segments-console.test.ts.
 */
import type { Browser, Page } from "@playwright/test";
import { buildQuestionsSite, type QuestionsSite } from "../support/questions-site";
import type { TestSmtp } from "../support/smtp";
import type { WebhookReceiver } from "../support/webhook-receiver";
import { checkState, consoleEnv, FINISHED, signIn, test, webhooksTo } from "./console-support";
import { E2E_ADMIN_TOKEN } from "./constants";
import { DESKTOP_ONLY, expect, expectNoAxeViolations, isMobile } from "./fixtures";
import { expectRefusedJoinAccessible, exported, QUESTIONS, SEEDED, seed, shoot } from "./questions-support";
import { contextLike } from "./referrals-support";
import { confirmInBrowser } from "./updates-support";

// One build for the file (seconds; a minute on a loaded machine), then each width in turn on this worker.
test.describe.configure({ mode: "default", timeout: 240_000 });
let site: QuestionsSite | undefined;
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's parameters; this one needs no fixture
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(240_000);
  site = await buildQuestionsSite(QUESTIONS);
});
test.afterAll(() => site?.remove());

const SIZE = "How big is your team?";
const USE = "What will you use it for?";
const ROLE = "What is your role?";
const please = (label: string) => `Please answer "${label}"`;
const group = (page: Page, label: string) =>
  page.getByRole("radiogroup", { name: new RegExp(`^${label.replace("?", "\\?")}`) });
const addresses = async (site: string) => [...(await exported(site)).rows.keys()].sort();
const mailedWith = (smtp: TestSmtp, subject: string) =>
  smtp.messages
    .filter((m) => m.subject === subject)
    .map((m) => m.to)
    .sort();

/** The dialog: refused without the required choice (named, marked, nothing stored), then taken. */
async function signUpInDialog(page: Page, site: string) {
  await page.goto(`${site}/`);
  await page.locator("#contact").getByRole("link", { name: "Join the Waitlist" }).click();
  const dialog = page.locator('[role="dialog"]');
  await dialog.getByLabel("Email (required)").fill("dialog@example.com");
  await group(page, USE).getByLabel("Research").check();
  await dialog.getByLabel(`${ROLE} (required)`).fill("Founder");
  await dialog.getByLabel("I accept the").check();
  await dialog.getByRole("button", { name: "Join the Waitlist" }).click();
  const size = group(page, SIZE);
  await expect(page.locator(".toast-destructive")).toContainText(please(SIZE));
  await expect(size).toHaveAttribute("aria-invalid", "true");
  await expect(size).toHaveAccessibleDescription(please(SIZE));
  expect(await addresses(site)).toEqual(SEEDED);
  await expectNoAxeViolations(page);
  await shoot(page, "dialog-refused", size);

  await size.getByLabel("50+").check();
  await dialog.getByRole("button", { name: "Join the Waitlist" }).click();
  await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "dialog-thanks", dialog);
}

/** /join without JavaScript: a role of spaces only is no answer (named, marked, nothing stored), then taken. */
async function signUpOnJoin(browser: Browser, page: Page, site: string) {
  const context = await contextLike(browser, page, false);
  const noScript = await context.newPage();
  const send = async (form: Page, role: string) => {
    await form.getByLabel("Email (required)").fill("join@example.com");
    await group(form, SIZE).getByLabel("2–10").check();
    await form.getByLabel(`${ROLE} (required)`).fill(role);
    await form.getByLabel("I accept the").check();
    await form.getByRole("button", { name: "Join the Waitlist" }).click();
  };
  await noScript.goto(`${site}/join`);
  const answer = noScript.waitForResponse((r) => r.request().method() === "POST");
  await send(noScript, "   ");
  const refused = await (await answer).text();
  await expect(noScript.getByRole("alert")).toContainText(please(ROLE));
  const role = noScript.getByLabel(`${ROLE} (required)`);
  await expect(role).toHaveAttribute("aria-invalid", "true");
  await expect(role).toHaveAccessibleDescription(please(ROLE));
  await expect(group(noScript, SIZE).getByLabel("2–10")).toBeChecked();
  expect(await addresses(site)).toEqual([...SEEDED, "dialog@example.com"].sort());
  await shoot(noScript, "join-refused");
  await expectRefusedJoinAccessible(browser, noScript, refused, (form) => send(form, "   "));

  await send(noScript, "Teacher");
  await expect(noScript).toHaveURL(`${site}/join/thanks#confirmation-sent`);
  await context.close();
}

/** Stored with the answers: the export's columns, the webhooks, the person's page. */
async function expectAnswersKept(page: Page, site: string, receiver: WebhookReceiver) {
  const { header, rows } = await exported(site);
  expect(header).toMatch(/,referrals,team-size,use,role,answers_no_longer_asked$/);
  expect(rows.get("dialog@example.com")).toMatch(/,0,50\+,Research,Founder,$/);
  expect(rows.get("join@example.com")).toMatch(/,0,2–10,,Teacher,$/);
  expect(rows.get("ana@example.com")).toMatch(/,0,50\+,Research,,$/);

  const signedUp = () =>
    receiver.received
      .filter((d) => d.type === "waitlist.signed_up")
      .map((d) => d.body["data"] as { email: string; answers: unknown })
      .map(({ email, answers }) => ({ email, answers }));
  await expect.poll(signedUp, { timeout: 30_000 }).toEqual([
    { email: "dialog@example.com", answers: { "team-size": "50+", use: "Research", role: "Founder" } },
    { email: "join@example.com", answers: { "team-size": "2–10", role: "Teacher" } },
  ]);

  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "People" }).click();
  await page.getByRole("link", { name: "dialog@example.com", exact: true }).click();
  const answers = page.getByRole("region", { name: "Answers", exact: true });
  // The brief's fields (none given here), then each question under its label, in the file's order.
  await expect(answers.locator("dt")).toHaveText([
    "Name",
    "Organization",
    "Why are you interested?",
    "How would you like to connect or contribute?",
    SIZE,
    USE,
    ROLE,
  ]);
  await expect(answers.locator("dd")).toHaveText([...Array(4).fill("Not given"), "50+", "Research", "Founder"]);
  await checkState(page, "person-answers");
}

/** The People page filtered by one answer (the select of its question), its list checked. */
async function filterBy(page: Page, site: string, label: string, value: string, listed: string[]) {
  await page.goto(`${site}/admin/people`);
  if (isMobile(page)) await page.locator("details.filters > summary").click();
  await page.getByLabel(label, { exact: true }).selectOption(value);
  await page.getByRole("button", { name: "Show people" }).click();
  await expect(page.getByRole("list", { name: "Filters in use" }).getByRole("link")).toHaveText([
    `${label} ${value} × (remove this filter)`,
  ]);
  await expect(page.locator("table.people td.who a")).toHaveText(listed);
}

/** Write to everyone matching: the update reaches those of them who said yes, each once. */
async function updateMatching(page: Page, site: string, smtp: TestSmtp) {
  await filterBy(page, site, USE, "Research", [
    "dialog@example.com",
    "dot@example.com",
    "ben@example.com",
    "ana@example.com",
  ]);
  await checkState(page, "filtered-by-use");
  await page.getByRole("link", { name: "Write to everyone matching" }).click();
  await expect(
    page.getByText(`To the 3 confirmed people matching ${USE} Research who said yes to updates.`),
  ).toBeVisible();
  await checkState(page, "update-to-matching");
  const write = async () => {
    await page.getByLabel("Subject").fill("Research notes");
    await page.getByLabel("Text").fill("Hello from the team.\n\nThe reading list is in.");
    await page.getByRole("button", { name: "Preview" }).click();
  };
  await write();
  await page.getByRole("button", { name: "Send to 3 people…" }).click();
  await checkState(page, "update-confirm");
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByRole("status").last()).toHaveText(FINISHED, { timeout: 60_000 });
  const reached = ["ana@example.com", "ben@example.com", "dialog@example.com"];
  expect(mailedWith(smtp, "Research notes")).toEqual(reached);

  // The same words to the same filter again are that update, already sent: nobody gets them twice.
  await page.goto(`${site}/admin/updates?answer%3Ause=Research`);
  await write();
  await expect(page.getByRole("heading", { level: 1, name: "Already sent" })).toBeVisible();
  await expect(page.getByText(/ sent it\. Nobody was sent it again\.$/)).toBeVisible();
  await checkState(page, "update-already-sent");
  expect(mailedWith(smtp, "Research notes")).toEqual(reached);
}

/** Invite everyone matching: asked once, then a wave of exactly those confirmed and waiting, each once. */
async function inviteMatching(page: Page, site: string, smtp: TestSmtp) {
  await filterBy(page, site, SIZE, "50+", [
    "dialog@example.com",
    "dot@example.com",
    "cal@example.com",
    "ana@example.com",
  ]);
  await page.getByRole("button", { name: "Invite everyone matching (3)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Invite 3 people?" })).toBeVisible();
  const invited = ["ana@example.com", "cal@example.com", "dialog@example.com"];
  expect((await page.getByRole("region", { name: "Who it invites" }).locator("li").allTextContents()).sort()).toEqual(
    invited,
  );
  await checkState(page, "invite-matching");
  await page.getByRole("button", { name: "Invite 3 people" }).click();
  await expect(page.getByRole("status").last()).toHaveText(FINISHED, { timeout: 60_000 });
  await checkState(page, "invite-matching-done");
  expect(mailedWith(smtp, "Noosphere: your early access is ready")).toEqual(invited);

  await filterBy(page, site, SIZE, "50+", [
    "dialog@example.com",
    "dot@example.com",
    "cal@example.com",
    "ana@example.com",
  ]);
  await expect(page.getByText("Nobody matching is confirmed and waiting to be invited.")).toBeVisible();
  expect(mailedWith(smtp, "Noosphere: your early access is ready")).toEqual(invited);
}

for (const device of [
  { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  { viewport: { width: 1280, height: 800 } },
]) {
  test.describe(`at ${device.viewport.width} px`, DESKTOP_ONLY, () => {
    test.use(device);

    test("asked at sign-up, stored, shown, exported, sent, and chosen by", async ({
      page,
      browser,
      ownServer,
      smtp,
      receiver,
    }) => {
      if (!site) throw new Error("the site with the test's questions was not built");
      const env = { ...consoleEnv(smtp, webhooksTo(receiver)), WAITLIST_ADMIN_TOKEN: E2E_ADMIN_TOKEN };
      const server = await ownServer(env, seed, site.root);
      await signUpInDialog(page, server.url);
      await signUpOnJoin(browser, page, server.url);
      await confirmInBrowser(page, smtp, "dialog@example.com");
      await page.getByRole("button", { name: "Send me updates" }).click();
      await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");
      await confirmInBrowser(page, smtp, "join@example.com");

      await signIn(page, smtp, server.url);
      await expectAnswersKept(page, server.url, receiver);
      await updateMatching(page, server.url, smtp);
      await inviteMatching(page, server.url, smtp);
    });
  });
}
