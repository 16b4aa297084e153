import { ANY_VIEWPORT, expect, PAGES, test } from "./fixtures";

const TERMS_TITLES = [
  "Acceptance of Terms",
  "Description of the Service",
  "Early Access",
  "Privacy and Data Ownership",
  "User Responsibilities",
  "Intellectual Property",
  "Shared Knowledge Networks",
  "AI and Machine Learning",
  "Service Modifications",
  "Limitation of Liability",
  "Termination",
  "Changes to These Terms",
  "Contact",
];

test("the about page has its sections in order, with #about and #contact anchors", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("#about")).toBeVisible();
  await expect(page.locator("#contact")).toBeVisible();
  const ids = await page.locator("main section[id]").evaluateAll((sections) => sections.map((s) => s.id));
  expect(ids).toEqual([
    "about",
    "learning-gap",
    "infrastructure",
    "collaboration",
    "collective",
    "foundations",
    "contact",
  ]);
  await expect(page.locator("#contact").getByRole("link", { name: "Join the Waitlist" })).toBeVisible();
  await expect(page.locator("footer")).toContainText("Where what you learn becomes what we know.");
});

test(
  "the product page has the headline and exactly 10 FAQ entries, every answer in the HTML",
  ANY_VIEWPORT,
  async ({ page, request }) => {
    await page.goto("/product");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your mind, connected.");
    await expect(page.locator("[data-faq-item]")).toHaveCount(10);
    // Every answer is server-rendered, even before the island hydrates.
    const html = await (await request.get("/product")).text();
    expect(html.match(/data-faq-item=/g)).toHaveLength(10);
    expect(html).toContain("Team mode gives a group a shared knowledge graph");
  },
);

test("the terms page lists the 13 sections in docs/brief.md's order", ANY_VIEWPORT, async ({ page }) => {
  await page.goto("/terms-of-service");
  const headings = await page.locator("main ol > li > h2").allTextContents();
  expect(headings.map((h) => h.replace(/\s+/g, " ").trim())).toEqual(TERMS_TITLES.map((t, i) => `${i + 1}. ${t}`));
});

test("the terms page shows the visitor's current date", ANY_VIEWPORT, async ({ page }) => {
  // A fixed clock far from the build date proves the date comes from the browser.
  await page.clock.setFixedTime(new Date("2031-02-03T10:00:00"));
  await page.goto("/terms-of-service");
  await expect(page.locator("#last-updated")).toHaveText("February 3, 2031");
  await expect(page.locator("#last-updated")).toHaveAttribute("datetime", "2031-02-03");
});

test("Back to Home goes home", async ({ page }) => {
  await page.goto("/terms-of-service");
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.locator("#about")).toBeVisible();
});

test("an unknown path answers 404, shows the message and logs the path", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await expect.poll(() => errors.join("\n")).toContain("/no/such/page");
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL("/");
});

test("every page has a title, description, canonical URL and social tags", ANY_VIEWPORT, async ({ page }) => {
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page).toHaveTitle(/Noosphere/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /Noosphere/);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
    // The pages an e-mail's link opens (and their outcomes) are unlisted: no canonical URL, kept out of search.
    const unlisted = path.startsWith("/waitlist/") && path !== "/waitlist/remove";
    if (unlisted) {
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
      await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
    } else if (!path.startsWith("/this-page")) {
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `https://noosphere.app${path}`);
    }
  }
});

test("robots.txt and the sitemap list the site", ANY_VIEWPORT, async ({ request }) => {
  expect(await (await request.get("/robots.txt")).text()).toContain("Sitemap: https://noosphere.app/sitemap-index.xml");
  const sitemap = await (await request.get("/sitemap-0.xml")).text();
  for (const path of ["/", "/product", "/terms-of-service"])
    expect(sitemap).toContain(`<loc>https://noosphere.app${path}</loc>`);
  expect(sitemap).not.toContain("404");
});

test(
  "Inter swaps in after load, and joins the page only once its file is in (no relayout while it loads)",
  ANY_VIEWPORT,
  async ({ page }) => {
    await page.addInitScript(() => {
      const added: string[] = [];
      (window as unknown as { fontsAdded: string[] }).fontsAdded = added;
      const add = document.fonts.add.bind(document.fonts);
      document.fonts.add = (face: FontFace) => {
        added.push(`${face.family.replaceAll('"', "")} ${face.status}`);
        return add(face);
      };
    });
    await page.goto("/");
    // check() alone is true before the face is added (no face of that family to wait for).
    await page.waitForFunction(
      () =>
        [...document.fonts].some((face) => face.family.replaceAll('"', "") === "Inter Variable") &&
        document.fonts.check('16px "Inter Variable"') &&
        document.fonts.status === "loaded",
    );
    const added = await page.evaluate(() => (window as unknown as { fontsAdded: string[] }).fontsAdded);
    expect(added).toEqual(["Inter Variable loaded"]);
    const used = await page.locator("h1").evaluate((h1) => getComputedStyle(h1).fontFamily);
    expect(used.startsWith('"Inter Variable"')).toBe(true);
  },
);
