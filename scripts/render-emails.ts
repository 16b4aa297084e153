/**
 * `npm run emails`: renders the e-mails' templates (scripts/lib/email-templates.tsx, React Email) into
 * src/server/mail/templates.ts, the strings the server fills; then `npm run emails:pictures` draws each e-mail.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { TEMPLATES_FILE, templatesModule } from "./lib/email-templates";

const next = await templatesModule();
const before = (() => {
  try {
    return readFileSync(TEMPLATES_FILE, "utf8");
  } catch {
    return "";
  }
})();
const name = relative(process.cwd(), TEMPLATES_FILE);
if (before === next) {
  console.log(`${name}: up to date`);
} else {
  writeFileSync(TEMPLATES_FILE, next);
  console.log(`${name}: written (${next.length.toLocaleString("en")} characters)`);
}
