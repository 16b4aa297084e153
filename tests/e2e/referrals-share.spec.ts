/**
 * Referrals in a real browser, share links: a sign-up through one by each path a visitor can take (the island,
 * the early dialog before the island, /join without JavaScript), each counted once its person confirms; the
 * link's page and what it tells the visitor. The status page: referrals.spec.ts.
 */
import type { Page } from "@playwright/test";
import { ANY_VIEWPORT, DESKTOP_ONLY, expect, expectNoAxeViolations, openMenuIfMobile, test } from "./fixtures";
import {
  expectNothingKept,
  expectTaken,
  ISLAND,
  mailedServers,
  SHARE_LINK,
  signUp,
  signUpAnswer,
  signUpByRequest,
  unique,
} from "./referrals-support";

const servers = mailedServers();

test(
  "a share link counts a referral by each way of signing up, once its person confirms, naming nobody and keeping nothing",
  DESKTOP_ONLY,
  async ({ page, browser, ownServer }) => {
    test.slow(); // five people sign up and confirm by their e-mails
    const server = await servers.serve(ownServer);
    const referrer = unique("referrer");
    await signUpByRequest(server.url, referrer);
    const statusLink = await servers.confirmByRequest(server.url, referrer);
    await page.goto(statusLink);
    await expect(page.locator("#status-place")).toHaveText("1st of 1 waiting");
    await expect(page.locator("#status-referrals")).toHaveText("0 confirmed referrals");
    const share = await page.locator("#share-link").inputValue();
    expect(share).toMatch(SHARE_LINK);
    const code = new URL(share).searchParams.get("via") ?? "";

    const paths: { name: string; scripts: boolean; signUp: (visitor: Page, email: string) => Promise<void> }[] = [
      {
        name: "the island",
        scripts: true,
        async signUp(visitor, email) {
          await visitor.goto(share);
          // A friend's link says so on the page and in the dialog: no name, no address.
          await expect(visitor.getByRole("main").getByText("A friend invited you to join.")).toBeVisible();
          await visitor.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
          const dialog = visitor.locator('[role="dialog"]');
          await expect(dialog.getByText("A friend invited you to join.")).toBeVisible();
          const answer = signUpAnswer(visitor);
          await signUp(dialog, email);
          const response = await expectTaken(answer, 201);
          // The island read the code from the page's address and sent it with the sign-up.
          expect(response.request().postDataJSON()).toMatchObject({ email, referral: code });
          await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
        },
      },
      {
        name: "the early dialog, sent before the island arrived",
        scripts: true,
        async signUp(visitor, email) {
          await visitor.route(ISLAND, () => {}); // never answered: the early dialog's own form is what is sent
          await visitor.goto(share);
          await visitor.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
          const answer = signUpAnswer(visitor);
          await signUp(visitor.locator("#waitlist-early"), email);
          const response = await expectTaken(answer, 303);
          // Its form has no field for the code: the function reads it from the page the form was sent from.
          expect(response.request().postData()).not.toContain("referral");
          expect(await response.request().headerValue("referer")).toBe(share);
          await visitor.waitForURL("**/join/thanks*");
          await expect(visitor.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
        },
      },
      {
        name: "/join without JavaScript, from the share link's page",
        scripts: false,
        async signUp(visitor, email) {
          await visitor.goto(share);
          await visitor.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
          await expect(visitor).toHaveURL(`${server.url}/join`);
          // Filled by the function that answered GET /join, from that request's Referer (the share link).
          await expect(visitor.locator("#join-referral")).toHaveValue(code);
          const answer = signUpAnswer(visitor);
          await signUp(visitor.getByRole("main"), email);
          expect((await expectTaken(answer, 303)).request().postData()).toContain(`referral=${code}`);
          await expect(visitor).toHaveURL(`${server.url}/join/thanks#confirmation-sent`);
        },
      },
      {
        name: "/join?via= without JavaScript",
        scripts: false,
        async signUp(visitor, email) {
          await visitor.goto(`${server.url}/join?via=${code}`);
          await expect(visitor.locator("#join-referral")).toHaveValue(code);
          await expect(visitor.getByRole("main").getByText("A friend invited you to join.")).toBeVisible();
          const answer = signUpAnswer(visitor);
          await signUp(visitor.getByRole("main"), email);
          expect((await expectTaken(answer, 303)).request().postData()).toContain(`referral=${code}`);
          await expect(visitor).toHaveURL(`${server.url}/join/thanks#confirmation-sent`);
        },
      },
    ];

    const everyone = [referrer];
    /** Every status page's HTML as the server sent it. */
    const statusPages: string[] = [];
    /** The referrer's page again, as the server sends it now. */
    const referrerPage = async () => {
      const response = await page.reload();
      expect(response?.status()).toBe(200);
      return (await response?.text()) ?? "";
    };
    const counts = ["1 confirmed referral", "2 confirmed referrals", "3 confirmed referrals", "4 confirmed referrals"];
    const places = ["2nd of 2 waiting", "3rd of 3 waiting", "4th of 4 waiting", "5th of 5 waiting"];
    for (const [i, path] of paths.entries()) {
      await test.step(path.name, async () => {
        const email = unique(`referred${i + 1}`);
        everyone.push(email);
        const context = await browser.newContext({ javaScriptEnabled: path.scripts });
        const visitor = await context.newPage();
        await path.signUp(visitor, email);

        // Signed up, not confirmed: nothing counts yet.
        await servers.mail().waitFor(email);
        statusPages.push(await referrerPage());
        await expect(page.locator("#status-referrals")).toHaveText(
          i === 0 ? "0 confirmed referrals" : (counts[i - 1] ?? ""),
        );

        // The referred person confirms, and lands on a page of their own.
        const { response } = await servers.confirmInBrowser(visitor, email);
        statusPages.push(await response.text());
        await expect(visitor.locator("#status-place")).toHaveText(places[i] ?? "");
        await expect(visitor.locator("#status-referrals")).toHaveText("0 confirmed referrals");
        expect(await visitor.locator("#share-link").inputValue()).not.toBe(share);
        await expectNothingKept(context, visitor, path.scripts);
        await context.close();

        statusPages.push(await referrerPage());
        await expect(page.locator("#status-referrals")).toHaveText(counts[i] ?? "");
        await expect(page.locator("#status-place")).toHaveText(`1st of ${i + 2} waiting`);
      });
    }

    // No status page names anyone: not the referred people, not the referrer.
    expect(statusPages).toHaveLength(paths.length * 3);
    for (const html of statusPages) {
      for (const email of everyone) {
        expect(html).not.toContain(email);
        expect(html).not.toContain(email.split("@")[0] ?? email);
      }
    }
  },
);

test("a share link's page has the same Open Graph tags as the home page", ANY_VIEWPORT, async ({ page }) => {
  const tags = async (path: string) => {
    await page.goto(path);
    return page
      .locator('meta[property^="og:"], link[rel="canonical"]')
      .evaluateAll((all) =>
        all.map(
          (el) =>
            `${el.getAttribute("property") ?? el.getAttribute("rel")}=${el.getAttribute("content") ?? el.getAttribute("href")}`,
        ),
      );
  };
  const home = await tags("/");
  for (const name of ["og:title", "og:description", "og:image"]) {
    expect(home.find((tag) => tag.startsWith(`${name}=`))).toMatch(new RegExp(`^${name}=\\S`));
  }
  expect(await tags("/?via=abcdefghjk")).toEqual(home);
});

test("a visitor by a share link sees that a friend invited them, on the page, in the dialog and on /join", async ({
  page,
}, testInfo) => {
  const note = "A friend invited you to join.";
  await page.goto("/");
  await expect(page.getByText(note)).toBeHidden();
  await page.goto("/?via=abcdefghjk");
  await expect(page.getByRole("main").getByText(note)).toBeVisible();
  await expectNoAxeViolations(page);
  await testInfo.attach(`friend-note-${page.viewportSize()?.width}.png`, {
    body: await page.screenshot(),
    contentType: "image/png",
  });
  await openMenuIfMobile(page);
  await page.getByRole("link", { name: "Join the Waitlist" }).first().click();
  await expect(page.getByRole("dialog").getByText(note)).toBeVisible();
  // A code of another shape is no share link: no note.
  await page.goto("/join?via=not-a-code");
  await expect(page.getByText(note)).toBeHidden();
  await page.goto("/join?via=abcdefghjk");
  await expect(page.getByRole("main").getByText(note)).toBeVisible();
  await expectNoAxeViolations(page);
});
