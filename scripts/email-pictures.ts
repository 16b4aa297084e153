/**
 * `npm run emails:pictures`: each e-mail the site sends (scripts/lib/email-samples.ts, sample links), its HTML part
 * drawn in Chromium at 375 px (a phone) and 600 px (a mail client's reading pane) wide, written to
 * docs/emails/<name>-<width>.png with docs/emails/README.md listing them. `--dark`: the same drawn with the
 * reader's system in dark mode, to /tmp/email-pictures-dark/ (for a look, not kept).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_HINT, findChromium, TEST_CHROMIUM_ARGS } from "./lib/chromium";
import { EMAIL_SAMPLES } from "./lib/email-samples";

const ROOT = join(import.meta.dirname, "..");
const dark = process.argv.includes("--dark");
const OUT = dark ? "/tmp/email-pictures-dark" : join(ROOT, "docs/emails");
const WIDTHS = [375, 600] as const;

const found = await findChromium("headless-shell");
if (!found) throw new Error(CHROMIUM_HINT);
const browser = await chromium.launch({
  args: TEST_CHROMIUM_ARGS,
  ...(found.executablePath ? { executablePath: found.executablePath } : {}),
});
mkdirSync(OUT, { recursive: true });
for (const file of readdirSync(OUT)) if (file.endsWith(".png")) rmSync(join(OUT, file));
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height: 400 },
      colorScheme: dark ? "dark" : "light",
      // Offline: an e-mail loads nothing, and a picture of one must not either.
      offline: true,
    });
    const page = await context.newPage();
    for (const { name, message } of EMAIL_SAMPLES) {
      await page.setContent(message.html, { waitUntil: "load" });
      await page.screenshot({ path: join(OUT, `${name}-${width}.png`), fullPage: true });
    }
    await context.close();
  }
} finally {
  await browser.close();
}

if (!dark) {
  const rows = EMAIL_SAMPLES.map(
    ({ name, about, message }) =>
      `| ${name} | ${about} | “${message.subject}” | [375 px](${name}-375.png) · [600 px](${name}-600.png) |`,
  );
  writeFileSync(
    join(OUT, "README.md"),
    `# The e-mails

Each e-mail the site sends, its HTML part as Chromium draws it at 375 px (a phone) and 600 px (a mail client's
reading pane), with sample links. Made by \`npm run emails:pictures\` (scripts/email-pictures.ts) from the server's
own code (src/server/mail/messages.ts, src/server/updates/message.ts), in the templates \`npm run emails\` renders
with React Email (scripts/lib/email-templates.tsx → src/server/mail/templates.ts). Every e-mail has a plain-text
part that says the same words. Back to the [README](../../README.md).

| e-mail | sent | subject | pictures |
| --- | --- | --- | --- |
${rows.join("\n")}
`,
  );
}
console.log(`${EMAIL_SAMPLES.length * WIDTHS.length} pictures in ${OUT}`);
