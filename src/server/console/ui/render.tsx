/**
 * A console page as a Response: the element rendered to static HTML by react-dom/server (escaped by React, no
 * hydration markers, no script), behind the console's headers.
 */
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { PAGE_HEADERS } from "../../http/form-page";
import { CONSOLE_CSP } from "./styles";

/** The headers of every console answer: the site's, a CSP for the console's one stylesheet, noindex, no-store. */
export const CONSOLE_HEADERS: Record<string, string> = {
  ...PAGE_HEADERS,
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "no-store",
  "Content-Type": "text/html; charset=utf-8",
};

export function renderPage(element: ReactElement): string {
  return `<!doctype html>\n${renderToStaticMarkup(element)}\n`;
}

export function respond(status: number, element: ReactElement, headers: Record<string, string> = {}): Response {
  return new Response(renderPage(element), { status, headers: { ...CONSOLE_HEADERS, ...headers } });
}
