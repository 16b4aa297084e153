/**
 * The console says what `doctor` says (issue 53, point 4): until the required settings are made, the Overview's
 * attention list opens with the same findings in the same words, each linking to docs/deploying.md's section, never a
 * value; a first deploy with nothing set says on /admin how to get in, and that sign-ups are taken meanwhile.
 */
import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/server/app/store";
import { readConfig } from "../../../src/server/config";
import { ADMIN, call, h, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

const SERVER_SECRET = "c2VydmVyLXNlY3JldC1mb3ItY29uc29sZS10ZXN0cy0wMTIzNDU2";
const DATA_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const DOCS = "https://github.com/noosphere-app/noosphere-site/blob/main/docs/deploying.md";

/** The attention list's part of the Overview: from its heading to the totals. */
const attentionOf = (html: string) => html.slice(html.indexOf('id="attention"'), html.indexOf('id="totals"'));

describe("the Overview until setup holds", () => {
  it("opens with SERVER_SECRET and DATA_KEY in doctor's words, each once, linking to their sections", async () => {
    const cookie = await signInByLink();
    const attention = attentionOf(await (await call("/admin", { cookie })).text());
    expect(attention).toContain("Finish setting up this site: until these are set, the console opens with them.");
    expect(attention).toContain(
      `Invitation codes on status pages are off, and a deployed site&#x27;s background jobs (updates, waves) do not start; set SERVER_SECRET to \`openssl rand -base64 32\`. <a href="${DOCS}#server_secret">How to set SERVER_SECRET</a>`,
    );
    expect(attention).toContain(`<a href="${DOCS}#data_key">How to set DATA_KEY</a>`);
    // DATA_KEY's finding and the at-rest warning are the same words: said once.
    expect(attention.split("Sign-ups are stored as plain text").length).toBe(2);
    // The findings come before everything else the list holds.
    expect(attention.indexOf("SERVER_SECRET")).toBeLessThan(attention.indexOf("Sign-ups are stored as plain text"));
  });

  it("says nothing of setup once SERVER_SECRET and DATA_KEY are set, and never shows a value", async () => {
    h.config = readConfig({
      SMTP_URL: h.smtp.url,
      MAIL_FROM: "Noosphere <hello@noosphere.test>",
      ADMIN_EMAILS: ADMIN,
      RATE_LIMIT_MAX: "1000",
      SERVER_SECRET,
      DATA_KEY,
    });
    const saved = h.store;
    h.store = createStore(saved.db, h.config.dataKeys);
    try {
      const cookie = await signInByLink();
      const html = await (await call("/admin", { cookie })).text();
      expect(html).toContain("<h1>Overview</h1>");
      expect(html).not.toContain("Finish setting up this site");
      expect(html).not.toContain(SERVER_SECRET);
      expect(html).not.toContain(DATA_KEY);
    } finally {
      h.store = saved;
    }
  });
});

describe("a first deploy with nothing set", () => {
  it("answers /admin with how to get in, that sign-ups go on, and where the steps are", async () => {
    h.config = readConfig({});
    const html = await (await call("/admin")).text();
    expect(html).toContain("<h1>The console is off</h1>");
    expect(html).toContain("The site takes sign-ups meanwhile. Step by step:");
    expect(html).toContain(`<a href="${DOCS}#signing-in-to-the-console">signing in to the console</a>`);
    expect(html).toContain(`<a href="${DOCS}#the-first-deploy-step-by-step">the first deploy</a>`);
  });
});
