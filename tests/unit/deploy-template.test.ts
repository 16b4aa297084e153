/**
 * The "Deploy to Netlify" button and what it asks (issue 53, point 1): netlify.toml's `[template.environment]` read
 * by smol-toml, the parser @netlify/config itself uses (node_modules/@netlify/config/lib/utils/toml.js), each label
 * saying what the setting is for and what happens without it; the button on the README's first screen, pointing at
 * the repository package.json names; Netlify Database provisioned because @netlify/database is a dependency.
 */
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("netlify.toml's template", () => {
  const toml = parse(read("netlify.toml")) as { template?: { environment?: Record<string, string> } };
  const environment = toml.template?.environment ?? {};

  it("asks for the six settings a deployer decides first, in this order", () => {
    expect(Object.keys(environment)).toEqual([
      "SERVER_SECRET",
      "ADMIN_EMAILS",
      "SMTP_URL",
      "MAIL_FROM",
      "SITE_URL",
      "EARLY_ACCESS_URL",
    ]);
  });

  it.each([
    [
      "SERVER_SECRET",
      "openssl rand -base64 32",
      "Without it, status pages offer no invitation code and updates and waves do not start.",
    ],
    ["ADMIN_EMAILS", "console at /admin", "Without it, nobody can sign in by e-mail."],
    ["SMTP_URL", "smtps://", "Without it, sign-ups are kept unconfirmed and no e-mail is sent."],
    ["MAIL_FROM", "verified", "Without it, no e-mail is sent."],
    ["SITE_URL", "https://", "Without it, links use the address each request came to"],
    ["EARLY_ACCESS_URL", "?invite=<code>", "Without it, nobody can be invited"],
  ])("labels %s with what it is for and what happens without it", (name, what, without) => {
    expect(environment[name]).toContain(what);
    expect(environment[name]).toContain(without);
  });

  it("never asks for DATA_KEY, which belongs to the Production context only", () => {
    expect(environment).not.toHaveProperty("DATA_KEY");
  });
});

describe("the button", () => {
  const readme = read("README.md");
  const repository = (JSON.parse(read("package.json")) as { repository: { url: string } }).repository.url;

  it("is on the README's first screen and deploys the repository package.json names", () => {
    const firstScreen = readme.split("\n").slice(0, 12).join("\n");
    expect(firstScreen).toContain(
      `[![Deploy to Netlify](https://www.netlify.com/img/deploy/button.svg)](https://app.netlify.com/start/deploy?repository=${repository})`,
    );
    expect(repository).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  });

  it("leaves the README at 150 lines or fewer", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(150);
  });

  it("comes with Netlify Database: @netlify/database is a dependency, not a dev one", () => {
    const pkg = JSON.parse(read("package.json")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies["@netlify/database"]).toMatch(/^\^2\./);
  });

  it("links a walk-through that covers the button, the first deploy, a domain and what to set next", () => {
    const deploying = read("docs/deploying.md");
    for (const step of [
      "1. **The button.**",
      "2. **The first deploy.**",
      "3. **Before you share the address: `DATA_KEY`.**",
      "4. **A custom domain.**",
      "6. **What to set next**",
    ]) {
      expect(deploying).toContain(step);
    }
    expect(readme).toContain("(docs/deploying.md#the-first-deploy-step-by-step)");
    expect(readme).toContain("(docs/customising.md)");
  });
});
