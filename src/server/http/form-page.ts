import { FORM_TEXT } from "../../lib/waitlist/form-text";
import { SITE } from "../../site";
import { seeOther } from "./responses";

/** Text made safe inside HTML, attributes included (the form's pages and the e-mails). */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/**
 * What netlify.toml gives every file (`for = "/*"`), which Netlify does not apply to a function's answers: a page a
 * function serves sends it itself. tests/unit/form-page.test.ts holds the two equal.
 */
export const SITE_HEADERS: Record<string, string> = {
  "Content-Security-Policy": "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'",
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy":
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/** The headers of the form's own answers (an error page): the site's, with a CSP that lets nothing load. */
export const PAGE_HEADERS: Record<string, string> = {
  ...SITE_HEADERS,
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
};

export interface FormErrorOptions {
  /** Where "Back to the form" leads; the sign-up form unless said otherwise. */
  back?: string;
  /** Headers this answer adds (Retry-After on a 429). */
  headers?: Record<string, string>;
}

/** The answer to a form post (no JavaScript) that could not be taken: the message and a way back. */
export function formErrorPage(
  status: number,
  title: string,
  message: string,
  { back = "/join", headers = {} }: FormErrorOptions = {},
): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(SITE.name)}</title>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(message)}</p>
<p><a href="${escapeHtml(back)}">Back to the form</a> · <a href="/">${escapeHtml(SITE.name)} home</a></p>
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...PAGE_HEADERS, ...headers },
  });
}

/**
 * Where a successful form post goes (303 See Other, so a reload does not post again). With confirmation by
 * e-mail on, to /join/thanks#confirmation-sent: the page's line about the link shows for that fragment (CSS
 * :target), so the static page needs no JavaScript to say it.
 */
export function formSuccess(confirmation = false): Response {
  return seeOther(confirmation ? `/join/thanks#${FORM_TEXT.thanks.confirmationFragment}` : "/join/thanks");
}
