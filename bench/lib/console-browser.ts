/**
 * The operator's browser as a bench drives the console with e-mail on: signed in by the link the console mails to
 * an address of ADMIN_EMAILS (WAITLIST_ADMIN_TOKEN signs in only while e-mail is off), its session cookie kept,
 * every request counted (so a bench can show it sent none after a confirmation), redirects not followed, and a
 * form's hidden fields read from a page as a browser would post them.
 */
import { SESSION_COOKIE } from "../../src/server/console/sign-in/sign-in";
import { unescapeHtml } from "./scale-measure";

export interface Answer {
  status: number;
  location: string;
  body: string;
  ms: number;
}

export class ConsoleBrowser {
  /** Every request this browser made. */
  requests = 0;
  private cookie = "";
  constructor(readonly base: string) {}

  /**
   * Signs in as `admin`: asks for the link, waits up to a minute for `links` (what the SMTP server kept) to hold a
   * new one, opens it and confirms, as a person does.
   */
  async signIn(admin: string, links: readonly string[]): Promise<void> {
    const before = links.length;
    await this.send("/admin");
    const asked = await this.send("/admin/sign-in", { email: admin });
    if (asked.status !== 303) throw new Error(`sign-in answered ${asked.status}: ${asked.body.slice(0, 300)}`);
    const deadline = Date.now() + 60_000;
    while (links.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const link = links[before];
    if (!link) throw new Error("no sign-in link reached the SMTP server within 60 s");
    const page = await this.send(link);
    const confirmed = await this.send(link, {});
    if (page.status !== 200 || confirmed.status !== 303 || !this.cookie) {
      throw new Error(`signing in answered ${page.status}, then ${confirmed.status}`);
    }
  }

  /** A GET, or with `fields` a form's POST (with the Origin a browser sends). */
  async send(path: string, fields?: Record<string, string>): Promise<Answer> {
    this.requests++;
    const headers: Record<string, string> = this.cookie ? { Cookie: this.cookie } : {};
    const init: RequestInit = { redirect: "manual", headers };
    if (fields) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      headers["Origin"] = new URL(this.base).origin;
      init.method = "POST";
      init.body = new URLSearchParams(fields).toString();
    }
    const started = performance.now();
    const response = await fetch(new URL(path, this.base), init);
    const body = await response.text();
    const set = response.headers.get("set-cookie");
    if (set?.startsWith(`${SESSION_COOKIE}=`)) this.cookie = set.split(";")[0] ?? "";
    return {
      status: response.status,
      location: response.headers.get("location") ?? "",
      body,
      ms: performance.now() - started,
    };
  }
}

/** The page's text as a reader sees it: React's `<!-- -->` between adjacent texts dropped. */
export const visible = (html: string) => html.replaceAll("<!-- -->", "");

/**
 * The hidden fields of the first form on `html` whose markup contains `marker` (a button's words, a field), as
 * a browser posts them; null: no such form.
 */
export function formFields(html: string, marker: string): Record<string, string> | null {
  for (const [form] of visible(html).matchAll(/<form\b[\s\S]*?<\/form>/g)) {
    if (!form.includes(marker)) continue;
    const fields: Record<string, string> = {};
    for (const [input] of form.matchAll(/<input\b[^>]*>/g)) {
      const name = /\bname="([^"]*)"/.exec(input)?.[1];
      const value = /\bvalue="([^"]*)"/.exec(input)?.[1] ?? "";
      if (name !== undefined && /\btype="hidden"/.test(input)) fields[unescapeHtml(name)] = unescapeHtml(value);
    }
    return fields;
  }
  return null;
}
