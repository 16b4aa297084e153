import { expect, openMenuIfMobile, PAGES, test } from "./fixtures";

test("no page requests another origin or sets a cookie", async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL ?? "").origin;
  const foreign: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol !== "data:" && url.origin !== origin) foreign.push(request.url());
  });
  for (const path of PAGES) {
    await page.goto(path);
    await openMenuIfMobile(page);
  }
  // Both islands too: the FAQ's when it is in view, the dialog's on intent.
  await page.goto("/product#faq");
  await expect(page.locator("astro-island[ssr]:has([data-faq-item])")).toHaveCount(0);
  await openMenuIfMobile(page);
  await page.locator("[data-waitlist-open]:visible").first().focus();
  await page.waitForFunction(() => Boolean(window.__waitlist?.open));
  expect(foreign).toEqual([]);
  expect(await context.cookies()).toEqual([]);
});
