/**
 * The console's pages, made on the server: HTML forms and an SVG chart, no JavaScript at all, so nothing of it can
 * reach a public page and it is usable at once on any phone. The one inline stylesheet is allowed by its hash (no
 * 'unsafe-inline'); every answer is noindex and never cached.
 */
import { createHash } from "node:crypto";
import { SITE } from "../../site";
import { escapeHtml as h, PAGE_HEADERS } from "../http/form-page";

export const CONSOLE_PATH = "/admin";
export const CONSOLE_PATHS = {
  home: CONSOLE_PATH,
  signIn: `${CONSOLE_PATH}/sign-in`,
  confirm: `${CONSOLE_PATH}/sign-in/confirm`,
  signOut: `${CONSOLE_PATH}/sign-out`,
  invite: `${CONSOLE_PATH}/invite`,
  remove: `${CONSOLE_PATH}/remove`,
  export: `${CONSOLE_PATH}/export`,
  exportPart: `${CONSOLE_PATH}/export/part`,
  updates: `${CONSOLE_PATH}/updates`,
  jobs: `${CONSOLE_PATH}/jobs`,
  webhooks: `${CONSOLE_PATH}/webhooks`,
  audit: `${CONSOLE_PATH}/audit`,
  person: `${CONSOLE_PATH}/person`,
} as const;

/**
 * The most people one wave from the console invites while e-mail is off: its CSV is answered whole, under 3 KB a
 * row, so within the 6 MB a function may answer. With e-mail on a wave runs in the background, any size the CLI
 * allows (CONSOLE_WAVE_MAX_MAIL).
 */
export const CONSOLE_WAVE_MAX = 1000;
/** The most one wave may invite from the console with e-mail on: what the CLI's --next allows (6 digits). */
export const CONSOLE_WAVE_MAX_MAIL = 999_999;

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#131a33;background:#f5f6fb}
a{color:#4b2fc9}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #4b2fc9;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:1}
header{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;justify-content:space-between;padding:12px 16px;background:#fff;border-bottom:1px solid #e7eaf4}
header p{margin:0;color:#334066;font-size:14px;overflow-wrap:anywhere}
.brand{font-weight:700;color:#0b1020;text-decoration:none}
main{max-width:1040px;margin:0 auto;padding:16px}
h1{font-size:24px;margin:8px 0 16px}h2{font-size:18px;margin:0 0 12px}
section{background:#fff;border:1px solid #e7eaf4;border-radius:12px;padding:16px;margin:0 0 16px}
.totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:8px;margin:0}
.totals div{border:1px solid #e7eaf4;border-radius:8px;padding:8px 12px}
.totals dt{font-size:14px;color:#334066}.totals dd{margin:0;font-size:24px;font-weight:700;overflow-wrap:anywhere}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:8px;margin:0}
.facts div{border:1px solid #e7eaf4;border-radius:8px;padding:8px 12px;min-width:0}
.facts dt{font-size:14px;color:#334066}.facts dd{margin:0;overflow-wrap:anywhere}
.chart{display:block;width:100%;height:200px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:16px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e7eaf4;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td{overflow-wrap:anywhere}
form.inline{display:inline}
label{display:block;font-weight:600;margin:0 0 4px}
input,select,textarea{font:inherit;padding:8px 10px;border:1px solid #5e6a92;border-radius:8px;min-height:44px;max-width:100%}
input[type=text],textarea{width:100%}
.mail{border:1px dashed #5e6a92;border-radius:8px;padding:12px 16px;margin:0 0 12px;overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:14px/1.5 ui-monospace,monospace}
nav.areas{display:flex;gap:16px}
button{font:inherit;font-weight:600;min-height:44px;padding:8px 16px;border-radius:8px;border:1px solid #4b2fc9;background:#4b2fc9;color:#fff;cursor:pointer}
button.quiet{background:#fff;color:#4b2fc9}
button.danger{background:#b42318;border-color:#b42318}
.row{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end}
.note{color:#334066}
.notice{border-left:4px solid #067647;background:#ecfdf3;padding:8px 12px;border-radius:4px}
.error{border-left:4px solid #b42318;background:#fef3f2;padding:8px 12px;border-radius:4px}
table.log td{overflow-wrap:normal;min-width:0}table.log pre,table.log code{white-space:pre;overflow-x:auto;max-width:100%;display:block}
tr.failing td{color:#b42318}tr.failing td:first-child{box-shadow:inset 4px 0 #b42318;padding-left:12px}
progress{display:block;width:100%;height:20px;margin:4px 0 12px}
nav.pages{display:flex;gap:16px;margin-top:8px}
.tabs{display:flex;gap:8px;margin:0 0 8px;padding:0;list-style:none}
.tabs a{display:inline-block;padding:6px 12px;border-radius:999px;border:1px solid #cdd3e6;text-decoration:none;min-height:44px;line-height:30px}
.tabs a[aria-current]{background:#4b2fc9;border-color:#4b2fc9;color:#fff}
@media (max-width:640px){
table.cards thead{position:absolute;left:-999px}
table.cards tr{display:block;border-bottom:1px solid #e7eaf4;padding:8px 0}
table.cards td{display:flex;gap:8px;border:0;padding:2px 0}
table.cards td::before{content:attr(data-label);font-weight:600;min-width:88px;color:#334066}
}
`;

const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(CSS).digest("base64")}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** The headers of every console answer: the site's, a CSP for this page's one stylesheet, noindex, no-store. */
export const CONSOLE_HEADERS: Record<string, string> = {
  ...PAGE_HEADERS,
  "Content-Security-Policy": CSP,
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "no-store",
  "Content-Type": "text/html; charset=utf-8",
};

const NAME = `${SITE.name} console`;

/** What a page may add to the shell: a refresh every `refreshSeconds` (a progress page while its job runs). */
export interface PageOptions {
  refreshSeconds?: number;
}

function layout(title: string, body: string, admin: string | null, options: PageOptions = {}): string {
  const who = admin
    ? `<nav class="areas" aria-label="Console"><a href="${CONSOLE_PATH}">Waitlist</a><a href="${CONSOLE_PATHS.updates}">Updates</a><a href="${CONSOLE_PATHS.webhooks}">Webhooks</a><a href="${CONSOLE_PATHS.audit}">Audit log</a></nav>
<p>Signed in as ${h(admin === "token" ? "the admin token" : admin)}</p>
<form method="post" action="${CONSOLE_PATHS.signOut}" class="inline"><button type="submit" class="quiet">Sign out</button></form>`
    : "";
  return `<!doctype html>
<html lang="${SITE.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">${options.refreshSeconds ? `\n<meta http-equiv="refresh" content="${Math.round(options.refreshSeconds)}">` : ""}
<title>${h(title)} · ${h(NAME)}</title>
<style>${CSS}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><a class="brand" href="${CONSOLE_PATH}">${h(NAME)}</a>${who}</header>
<main id="main">
${body}
</main>
</body>
</html>
`;
}

export function page(
  status: number,
  title: string,
  body: string,
  admin: string | null = null,
  headers = {},
  options: PageOptions = {},
) {
  return new Response(layout(title, body, admin, options), { status, headers: { ...CONSOLE_HEADERS, ...headers } });
}

/** A short page that says one thing, with a way back. */
export function message(status: number, title: string, text: string, admin: string | null = null, headers = {}) {
  const role = status >= 400 ? ' role="alert"' : "";
  return page(
    status,
    title,
    `<h1>${h(title)}</h1><section><p${role}>${h(text)}</p><p><a href="${CONSOLE_PATH}">Back to the console</a></p></section>`,
    admin,
    headers,
  );
}

export function offPage(): Response {
  return page(
    200,
    "The console is off",
    `<h1>The console is off</h1><section>
<p>Nobody can sign in yet. To turn it on, set one of these on the site (Netlify: Site configuration → Environment variables), then deploy again:</p>
<ul>
<li><code>ADMIN_EMAILS</code> (comma-separated addresses), with e-mail set up (<code>SMTP_URL</code> and <code>MAIL_FROM</code>): those people sign in with a link sent to them;</li>
<li>or <code>WAITLIST_ADMIN_TOKEN</code> (e.g. <code>openssl rand -hex 32</code>), while e-mail is off: sign in with that token.</li>
</ul></section>`,
  );
}

export type SignInMode = "email" | "token";

export function signInPage(mode: SignInMode, note: { notice?: string; error?: string } = {}, status = 200): Response {
  const notice = note.notice ? `<p class="notice" role="status">${h(note.notice)}</p>` : "";
  const error = note.error ? `<p class="error" role="alert">${h(note.error)}</p>` : "";
  const field =
    mode === "email"
      ? `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="255">`
      : `<label for="token">Admin token</label><input id="token" name="token" type="password" autocomplete="current-password" required maxlength="512">`;
  const intro =
    mode === "email"
      ? "Enter your address. If it may use the console, we'll e-mail it a sign-in link that works once, for 15 minutes."
      : "E-mail is off on this site: sign in with the admin token (WAITLIST_ADMIN_TOKEN).";
  return page(
    status,
    "Sign in",
    `<h1>Sign in</h1><section>${notice}${error}<p class="note">${h(intro)}</p>
<form method="post" action="${CONSOLE_PATHS.signIn}"><div class="row"><div>${field}</div>
<button type="submit">${mode === "email" ? "Send me a sign-in link" : "Sign in"}</button></div></form></section>`,
  );
}

/** The page a sign-in link opens: one button, so a mail scanner that follows the link signs nobody in. */
export function confirmSignInPage(action: string): Response {
  return page(
    200,
    "Sign in",
    `<h1>Sign in to the console</h1><section><p>One click signs you in on this device for 12 hours.</p>
<form method="post" action="${h(action)}"><button type="submit">Sign in</button></form></section>`,
  );
}

export function removeConfirmPage(admin: string, email: string): Response {
  return page(
    200,
    "Remove",
    `<h1>Remove ${h(email)}?</h1><section><p>This deletes the address, everything it sent and its links, as an erasure request asks. It cannot be undone.</p>
<form method="post" action="${CONSOLE_PATHS.remove}"><input type="hidden" name="email" value="${h(email)}"><input type="hidden" name="confirm" value="yes">
<div class="row"><button type="submit" class="danger">Remove for good</button><a href="${CONSOLE_PATH}">Cancel</a></div></form></section>`,
    admin,
  );
}
