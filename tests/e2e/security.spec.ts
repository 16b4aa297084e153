import { openFaqItem } from "./faq-support";
import { ANY_VIEWPORT, expect, openMenuIfMobile, PAGES, test } from "./fixtures";

test("every page sends the security headers", ANY_VIEWPORT, async ({ request }) => {
  for (const path of PAGES) {
    const headers = (await request.get(path)).headers();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["strict-transport-security"], path).toMatch(/max-age=\d{7,}/);
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"], path).toContain("camera=()");
    expect(headers["cross-origin-opener-policy"], path).toBe("same-origin");
  }
});

test("every page carries a CSP whose script-src has hashes and no 'unsafe-inline'", ANY_VIEWPORT, async ({ page }) => {
  for (const path of PAGES) {
    await page.goto(path);
    const csp = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute("content");
    const scriptSrc = csp?.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc, path).toMatch(/'sha256-/);
    // One hash per distinct inline script of this page, none for another page's.
    const inline = await page.$$eval("script:not([src])", (nodes) => new Set(nodes.map((n) => n.textContent)).size);
    expect(scriptSrc.match(/'sha256-/g)?.length, path).toBe(inline);
    expect(scriptSrc, path).not.toContain("unsafe-inline");
    expect(csp, path).toContain("default-src 'self'");
  }
});

test("the API answers with no-store and no CORS headers", ANY_VIEWPORT, async ({ request }) => {
  const response = await request.post("/api/waitlist", {
    data: { email: "" },
    headers: { Origin: "https://evil.example" },
  });
  expect(response.status()).toBe(403); // another site's origin is refused
  expect(response.headers()["cache-control"]).toBe("no-store");
  expect(response.headers()["access-control-allow-origin"]).toBeUndefined();
  const preflight = await request.fetch("/api/waitlist", {
    method: "OPTIONS",
    headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
  });
  expect(preflight.status()).toBe(405);
  expect(preflight.headers()["access-control-allow-origin"]).toBeUndefined();
});

test("the pages work and the browser reports no CSP violation", async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  const messages: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) messages.push(message.text());
  });
  const violations = () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

  for (const path of PAGES) {
    await page.goto(path, { waitUntil: "load" });
    expect(await violations(), path).toEqual([]);
  }
  // Exercise every script: the menu, the FAQ island, the dialog and a toast.
  await openFaqItem(page, "Does it work offline?");
  await openMenuIfMobile(page);
  await page.locator("[data-waitlist-open]:visible").first().click();
  await page.locator('[role="dialog"]').getByRole("button", { name: "Join the Waitlist" }).click();
  await expect(page.getByRole("alert")).toContainText("Email required");
  expect(await violations()).toEqual([]);
  expect(messages).toEqual([]);
});
