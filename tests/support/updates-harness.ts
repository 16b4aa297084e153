/**
 * The updates tests' shared ground (tests/integration/updates/): a real SMTP server that refuses REFUSED, the
 * backend's store, the unsubscribe and status handlers on stand-ins for the built pages, and helpers to seed people,
 * make and send an update and read who received it. Made afresh by each backend's describe block.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import type { Store } from "../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { createSmtpMailer } from "../../src/server/mail/mailer";
import { createStatusHandler } from "../../src/server/referrals/status-handler";
import { createUpdateStore, sendUpdate, updatesKey } from "../../src/server/updates";
import { createUpdatesHandler } from "../../src/server/updates/handler";
import type { OpenedStore } from "./backends";
import { startSmtp, type TestSmtp } from "./smtp";

export const ORIGIN = "http://localhost:4321";
/** A page's text, without its tags. */
export const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
export const REFUSED = "refused@example.com";
/** Stand-in for the built status page: the header's waitlist button and the slot the function fills. */
export const BARE_STATUS = `<!doctype html><header><a href="/join" data-waitlist-open class="rounded-full px-4">Join the Waitlist</a></header><main><section id="status-body" aria-label="Your status">This status link doesn't work</section></main>`;
const BARE_STATUS_FILE = pathToFileURL(join(mkdtempSync(join(tmpdir(), "update-status-")), "status.html"));
writeFileSync(BARE_STATUS_FILE, BARE_STATUS);
export const config = (smtpUrl: string): ServerConfig =>
  readConfig({ SMTP_URL: smtpUrl, MAIL_FROM: "Noosphere <hello@noosphere.test>", SITE_URL: ORIGIN });

export function updatesGround(available: boolean, open: () => Promise<OpenedStore>) {
  const state = {} as { smtp: TestSmtp; store: Store; config: ServerConfig };
  let opened: OpenedStore | undefined;
  const pending = new Set<Promise<unknown>>();
  beforeAll(async () => {
    if (!available) return;
    state.smtp = await startSmtp({ refuse: [REFUSED] });
    opened = await open();
    state.store = opened.store;
    state.config = config(state.smtp.url);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await state.smtp?.close();
  });

  // The unsubscribe page is the built notice; a stand-in file says which page it is.
  const unsubscribed = new URL(`file://${process.cwd()}/tests/support/fixtures/unsubscribed.html`);
  const unsubscribe = new URL(`file://${process.cwd()}/tests/support/fixtures/unsubscribe.html`);
  const handler = createUpdatesHandler(
    { store: async () => state.store, config: () => state.config },
    { unsubscribed, unsubscribe },
  );
  const call = async (request: Request) => {
    const response = await handler(request, createContext(request, "198.51.100.9", pending) as Context);
    while (pending.size) await Promise.all(pending);
    return response;
  };
  // The status page an update links, on a stand-in for the built page (its slot).
  const statusHandler = createStatusHandler(
    { store: async () => state.store, config: () => state.config },
    { status: BARE_STATUS_FILE },
  );
  const status = (request: Request) =>
    statusHandler(request, createContext(request, "198.51.100.9", pending) as Context);

  /** People as they stand: [address, status, consent (null: never asked)]. */
  async function seed(people: Array<[string, string, boolean | null]>) {
    await state.store.db.query("DELETE FROM waitlist");
    await state.store.db.query("DELETE FROM waitlist_update");
    state.smtp.messages.length = 0;
    for (const [email, status, consent] of people) {
      await state.store.db.query(
        "INSERT INTO waitlist (email, name, status, updates_consent, updates_consent_at) VALUES ($1, $2, $3, $4, CASE WHEN $4::boolean IS NOT NULL THEN now() END)",
        [email, email.split("@")[0], status, consent],
      );
    }
  }
  const updates = () => createUpdateStore(state.store.db, state.store.dataKeys);
  async function send(id: number, slice?: { ms: number; people: number }) {
    const mailer = createSmtpMailer(state.config.mail as NonNullable<ServerConfig["mail"]>);
    try {
      return await sendUpdate(id, {
        updates: updates(),
        mailer,
        root: await updatesKey(state.store),
        site: ORIGIN,
        owner: `test-${id}-${Math.random()}`,
        ratePerSecond: 0,
        ...(slice ? { slice } : {}),
      });
    } finally {
      mailer.close();
    }
  }
  const received = () => state.smtp.messages.map((m) => m.to).sort();
  const DRAFT = {
    subject: "What we built in March",
    body: "Hello!\n\nThe graph view is in: https://noosphere.test/graph.\nMore soon.",
  };

  return { state, call, status, unsubscribe, seed, updates, send, received, DRAFT };
}
