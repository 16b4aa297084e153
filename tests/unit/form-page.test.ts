/**
 * The pages a function answers with (a form that could not be taken) carry what netlify.toml gives every file,
 * since Netlify's header rules do not reach a function's answers; their CSP is stricter (no script, no style).
 */
import { expect, it } from "vitest";
import { loadHeaderRules } from "../../dev/local-netlify/site-server";
import { formErrorPage, PAGE_HEADERS, SITE_HEADERS } from "../../src/server/http/form-page";

it("a function's page sends every header netlify.toml sends for /*, with a CSP that allows nothing to load", async () => {
  const rules = await loadHeaderRules("netlify.toml", "dist-that-does-not-exist");
  const everyPage = rules.find((rule) => rule.for === "/*")?.values ?? {};
  const response = formErrorPage(400, "Please check the form", "<b>x</b>");
  for (const [name, value] of Object.entries(everyPage)) {
    if (name.toLowerCase() === "content-security-policy") continue;
    expect(response.headers.get(name), name).toBe(value);
  }
  expect(Object.keys(everyPage).length).toBeGreaterThan(5);
  const csp = response.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(PAGE_HEADERS["Content-Security-Policy"]).toBe(csp);
  // What the visitor sent is shown as text, never as markup.
  expect(await response.text()).toContain("&lt;b&gt;x&lt;/b&gt;");
});

it("a page a function serves whole sends exactly what netlify.toml sends for /*", async () => {
  const rules = await loadHeaderRules("netlify.toml", "dist-that-does-not-exist");
  const everyPage = rules.find((rule) => rule.for === "/*")?.values ?? {};
  expect(SITE_HEADERS).toEqual(everyPage);
  expect(SITE_HEADERS["Content-Security-Policy"]).toBe(
    "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'",
  );
});
