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
    await page.waitForLoadState("networkidle");
    await openMenuIfMobile(page);
  }
  // Scroll the FAQ into view so the lazily hydrated island loads too.
  await page.goto("/product#faq");
  await page.waitForLoadState("networkidle");
  expect(foreign).toEqual([]);
  expect(await context.cookies()).toEqual([]);
});
