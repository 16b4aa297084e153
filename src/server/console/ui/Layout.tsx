/**
 * Every console page's frame: <head> with the one stylesheet, the brand, who is signed in, the areas with the
 * current one marked (aria-current="page"), and the page's own content in <main>. Rendered on the server by
 * react-dom/server (render.tsx): text is escaped by React, so no page can forget to.
 */
import type { ReactNode } from "react";
import { SITE } from "../../../site";
import { CONSOLE_PATH, CONSOLE_PATHS } from "../paths";
import { Ident } from "./parts";
import { CONSOLE_CSS } from "./styles";

/** The console's areas, in the order the navigation shows them. */
export const AREAS = [
  { key: "home", href: CONSOLE_PATH, label: "Overview" },
  { key: "people", href: CONSOLE_PATHS.people, label: "People" },
  { key: "updates", href: CONSOLE_PATHS.updates, label: "Updates" },
  { key: "webhooks", href: CONSOLE_PATHS.webhooks, label: "Webhooks" },
  { key: "audit", href: CONSOLE_PATHS.audit, label: "Audit log" },
] as const;

export type Area = (typeof AREAS)[number]["key"];

export const CONSOLE_NAME = `${SITE.name} console`;

export interface LayoutProps {
  title: string;
  /** The admin signed in ("token": the admin token), or null on the pages before signing in. */
  admin: string | null;
  /** The area this page belongs to, marked in the navigation. */
  area?: Area | undefined;
  /** Reload every this many seconds (a job's page while it runs: the console has no script). */
  refreshSeconds?: number | undefined;
  children: ReactNode;
}

function Areas({ area }: { area?: Area | undefined }) {
  return (
    <nav className="areas" aria-label="Console">
      <ul>
        {AREAS.map((a) => (
          <li key={a.key}>
            <a href={a.href} aria-current={a.key === area ? "page" : undefined}>
              {a.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Layout({ title, admin, area, refreshSeconds, children }: LayoutProps) {
  return (
    <html lang={SITE.locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        {refreshSeconds ? <meta httpEquiv="refresh" content={String(Math.round(refreshSeconds))} /> : null}
        <title>{`${title} · ${CONSOLE_NAME}`}</title>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the console's own constant stylesheet, allowed by its hash */}
        <style dangerouslySetInnerHTML={{ __html: CONSOLE_CSS }} />
      </head>
      <body>
        <a className="skip" href="#main">
          Skip to content
        </a>
        <header className="top">
          <div className="bar">
            <a className="brand" href={CONSOLE_PATH}>
              {CONSOLE_NAME}
            </a>
            {admin ? (
              <>
                <p className="who">Signed in as {admin === "token" ? "the admin token" : <Ident text={admin} />}</p>
                <form method="post" action={CONSOLE_PATHS.signOut} className="inline">
                  <button type="submit" className="quiet">
                    Sign out
                  </button>
                </form>
              </>
            ) : null}
          </div>
          {admin ? <Areas area={area} /> : null}
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
