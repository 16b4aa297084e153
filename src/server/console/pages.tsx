/**
 * The console's pages, made on the server from JSX (ui/): HTML forms and SVG charts, no JavaScript at all, so
 * nothing of it can reach a public page and it is usable at once on any phone. Here: the shell every page uses
 * (`page`), and the small pages (a message, the console off, a removal's confirmation; signing in: sign-in-page.tsx).
 * Every answer is noindex and never cached (ui/render.tsx).
 */
import type { ReactElement } from "react";
import { docsLink } from "../setup";
import { CONSOLE_PATH, CONSOLE_PATHS } from "./paths";
import { type Area, Layout } from "./ui/Layout";
import { ConfirmForm, Section } from "./ui/parts";
import { respond } from "./ui/render";

export { CONSOLE_PATH, CONSOLE_PATHS, consoleHref } from "./paths";
export { CONSOLE_HEADERS } from "./ui/render";

/**
 * The most people one wave from the console invites while e-mail is off: its CSV is answered whole, under 3 KB a
 * row, so within the 6 MB a function may answer. With e-mail on a wave runs in the background, any size the CLI
 * allows (CONSOLE_WAVE_MAX_MAIL).
 */
export const CONSOLE_WAVE_MAX = 1000;
/** The most one wave may invite from the console with e-mail on: what the CLI's --next allows (6 digits). */
export const CONSOLE_WAVE_MAX_MAIL = 999_999;

/** What a page may add to the shell: its area (marked in the navigation), a refresh while a job runs. */
export interface PageOptions {
  area?: Area;
  refreshSeconds?: number;
}

/** Who is signed in (null: nobody), headers to add, and the page's options: what every page may pass its shell. */
type Shell = [admin?: string | null, headers?: Record<string, string>, options?: PageOptions];

/** A whole page: `body` (elements, escaped by React) inside the console's layout. */
export function page(
  status: number,
  title: string,
  body: ReactElement,
  ...[admin = null, headers = {}, options = {}]: Shell
) {
  return respond(
    status,
    <Layout title={title} admin={admin} area={options.area} refreshSeconds={options.refreshSeconds}>
      {body}
    </Layout>,
    headers,
  );
}

/** A short page that says one thing, with a way back. */
export function message(status: number, title: string, text: string, ...shell: Shell) {
  return page(
    status,
    title,
    <>
      <h1>{title}</h1>
      <section>
        {status >= 400 ? <p role="alert">{text}</p> : <p>{text}</p>}
        <p>
          <a href={CONSOLE_PATH}>Back to the console</a>
        </p>
      </section>
    </>,
    ...shell,
  );
}

export function offPage(): Response {
  return page(
    200,
    "The console is off",
    <>
      <h1>The console is off</h1>
      <section>
        <p>
          Nobody can sign in yet. To turn it on, set one of these on the site (Netlify: Site configuration → Environment
          variables), then deploy again:
        </p>
        <ul>
          <li>
            <code>ADMIN_EMAILS</code> (comma-separated addresses), with e-mail set up (<code>SMTP_URL</code> and{" "}
            <code>MAIL_FROM</code>): those people sign in with a link sent to them;
          </li>
          <li>
            or <code>WAITLIST_ADMIN_TOKEN</code> (e.g. <code>openssl rand -hex 32</code>), while e-mail is off: sign in
            with that token.
          </li>
        </ul>
        <p>
          The site takes sign-ups meanwhile. Step by step:{" "}
          <a href={docsLink("signing-in-to-the-console")}>signing in to the console</a>; every setting and what it is
          for: <a href={docsLink("the-first-deploy-step-by-step")}>the first deploy</a>.
        </p>
      </section>
    </>,
  );
}

export function removeConfirmPage(admin: string, email: string): Response {
  return page(
    200,
    "Remove",
    <>
      <h1>Remove {email}?</h1>
      <Section id="remove-what" title="This cannot be undone">
        <p>This deletes the address, everything it sent and its links, as an erasure request asks.</p>
        <ConfirmForm
          action={CONSOLE_PATHS.remove}
          fields={{ email }}
          label="Remove for good"
          danger
          back={CONSOLE_PATHS.people}
        />
      </Section>
    </>,
    admin,
  );
}
