/**
 * The e-mails' templates (issue 43): src/server/mail/templates.ts is what React Email renders of
 * scripts/lib/email-templates.tsx now (stale: fails; regenerate with `npm run emails`, or
 *   UPDATE_DOCS=1 npx vitest run --project fast tests/unit/email-templates.test.ts),
 * its slots are filled escaped, every e-mail's text part says the same words as its HTML, each one-to-one e-mail's
 * main action is a button, and no function loads React, react-dom or React Email at run time.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { EMAIL_SAMPLES } from "../../scripts/lib/email-samples";
import { TEMPLATES_FILE, templatesModule } from "../../scripts/lib/email-templates";
import { themeColours } from "../../scripts/lib/email-theme";
import { action, emailDocument, fill, note, paragraph } from "../../src/server/mail/layout";
import { SITE } from "../../src/site";

const ROOT = join(import.meta.dirname, "../..");
const REGENERATE = "npm run emails";

/** Entities the templates and escapeHtml write, read back. */
const decode = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/**
 * What the HTML says, as the text part writes it: what the body shows but the wordmark (data-skip-in-text), a link
 * as its address (or `Label: address` where the text part writes it so), the rule as `--`.
 */
function wordsOf(html: string, text: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "";
  return decode(
    body
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<p[^>]*data-skip-in-text="true"[^>]*>[\s\S]*?<\/p>/g, "")
      .replace(/<a [^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, (_, href: string, label: string) => {
        const [address, words] = [decode(href), decode(label.replace(/<[^>]+>/g, ""))];
        return text.includes(`${words}: ${address}`) ? `${words}: ${address}` : address;
      })
      .replace(/<hr[^>]*>/g, " -- ")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}
const flat = (text: string) => text.replace(/\s+/g, " ").trim();

describe("src/server/mail/templates.ts", () => {
  it("is what React Email renders of scripts/lib/email-templates.tsx now", async () => {
    const expected = await templatesModule();
    if (process.env["UPDATE_DOCS"] === "1") writeFileSync(TEMPLATES_FILE, expected);
    expect(readFileSync(TEMPLATES_FILE, "utf8"), `src/server/mail/templates.ts is stale: ${REGENERATE}`).toBe(expected);
  }, 30_000);

  it("takes the site's colours from its @theme, the button the brand's", () => {
    const theme = themeColours();
    expect(theme["brand-700"]).toMatch(/^#[0-9a-f]{6}$/i);
    const html = action("Words", { label: "Go", href: "https://example.com/" }).html;
    expect(html).toContain(`background-color:${theme["brand-700"]?.toLowerCase()}`);
    expect(html).toContain("border-radius:9999px");
  });

  it("fills every slot escaped: a value cannot add markup, a slot left out or one too many throws", () => {
    const html = action('<b>"Hi"</b> & more', { label: "<i>Go</i>", href: 'https://example.com/?a=1&b="x"' }).html;
    expect(html).toContain("&lt;b&gt;&quot;Hi&quot;&lt;/b&gt; &amp; more");
    expect(html).toContain('href="https://example.com/?a=1&amp;b=&quot;x&quot;"');
    expect(html).toContain("&lt;i&gt;Go&lt;/i&gt;");
    expect(html).not.toMatch(/<b>|<i>|\{\{/);
    expect(() => fill("paragraph", {})).toThrow("no value for {{text}}");
    expect(() => fill("paragraph", { text: "a", label: "b" })).toThrow("has no slot label");
    // A value that looks like a slot stays words: values are never read for slots again.
    expect(paragraph("{{site}}").html).toContain(">{{site}}</p>");
    const whole = emailDocument("<Subject>", [note("x")], "https://example.com");
    expect(whole).toContain("<title>&lt;Subject&gt;</title>");
    expect(whole).not.toContain("{{");
  });
});

describe.each(EMAIL_SAMPLES)("the $name e-mail", ({ name, message }) => {
  it("says in its text part the same words as in its HTML", () => {
    expect(wordsOf(message.html, message.text)).toBe(flat(message.text));
  });

  it("is the site's: the wordmark, the sign-off linking the site, no image, script or remote style", () => {
    expect(message.html).toMatch(/^<!DOCTYPE html/);
    expect(message.html).toContain(`data-skip-in-text="true"`);
    expect(message.html).toMatch(
      new RegExp(`— ${SITE.name}<br/><a class="nx-link" href="${SITE.url}"[^>]*>${SITE.url}</a>`),
    );
    expect(message.text.endsWith(`\n\n— ${SITE.name}\n${SITE.url}\n`)).toBe(true);
    expect(message.html).toContain('<meta name="color-scheme" content="light dark"/>');
    expect(message.html).not.toMatch(/<img|<script|url\(|@import|<link /i);
    expect(message.html).not.toContain("{{");
  });

  it("has its main action as a button, and only that one", () => {
    const buttons = [...message.html.matchAll(/<a href="[^"]*" style="[^"]*border-radius:9999px[^"]*"[^>]*>/g)];
    const labels: Record<string, string | undefined> = {
      confirmation: "Confirm my place",
      removal: "Remove this address",
      status: "My place in line",
      invitation: "Create my account",
      "console-sign-in": "Sign in to the console",
      update: undefined,
    };
    const label = labels[name];
    expect(buttons).toHaveLength(label ? 1 : 0);
    if (label) expect(message.html).toMatch(new RegExp(`border-radius:9999px[^>]*>[\\s\\S]{0,400}>${label}</span>`));
  });
});

describe("the functions", () => {
  /** The packages the bundled `functions` import at run time (esbuild, packages external, as Netlify builds v2). */
  async function packagesOf(functions: string[]) {
    const { metafile } = await build({
      entryPoints: functions.map((file) => join(ROOT, "netlify/functions", file)),
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      write: false,
      metafile: true,
      outdir: join(ROOT, "dist-never-written"),
      logLevel: "silent",
    });
    return [
      ...new Set(
        Object.values(metafile.inputs).flatMap((input) =>
          input.imports.filter((i) => i.external && !i.path.startsWith("node:")).map((i) => i.path),
        ),
      ),
    ];
  }
  const REACT = /^(react|react-dom|@react-email|prettier)(\/|$)/;
  const files = readdirSync(join(ROOT, "netlify/functions")).filter((file) => file.endsWith(".ts"));

  // The console renders its pages with react-dom/server; the sign-up function too, for one page only: a refused
  // /join without JavaScript answers /join again, filled and marked, from the same SignupFields as the built page
  // (the form's markup written once). Neither ever loads React Email.
  const RENDERERS = ["admin.ts", "waitlist.ts"];
  it("load no React, react-dom or React Email at run time (the templates are strings)", async () => {
    const packages = await packagesOf(files.filter((file) => !RENDERERS.includes(file)));
    expect(packages.length).toBeGreaterThan(3);
    expect(packages.filter((path) => REACT.test(path))).toEqual([]);
  }, 30_000);

  it("but the sign-up function renders a refused /join with react-dom/server, never React Email", async () => {
    const packages = await packagesOf(["waitlist.ts"]);
    expect(packages.filter((path) => REACT.test(path)).sort()).toEqual(["react-dom/server", "react/jsx-runtime"]);
  }, 30_000);

  it("but the console, which renders its pages with react-dom/server, never React Email", async () => {
    const packages = await packagesOf(["admin.ts"]);
    expect(packages.filter((path) => REACT.test(path)).sort()).toEqual([
      "react",
      "react-dom/server",
      "react/jsx-runtime",
    ]);
  }, 30_000);
});
