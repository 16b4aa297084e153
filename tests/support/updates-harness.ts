/**
 * The updates tests' shared ground (tests/integration/updates/): a real SMTP server that refuses REFUSED, the
 * backend's store, the unsubscribe and status handlers on stand-ins for the built pages, and helpers to seed people,
 * make and send an update, read who received it and the links it carried, and send through an SMTP server of a
 * test's own. Made afresh by each backend's describe block.
 */
import type { Context } from "@netlify/functions";
import { createContext } from "../../dev/local-netlify/netlify-context";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { createSmtpMailer } from "../../src/server/mail/mailer";
import { createStatusHandler } from "../../src/server/referrals/status-handler";
import { createUpdateStore, sendUpdate, updatesKey } from "../../src/server/updates";
import { createUpdatesHandler } from "../../src/server/updates/handler";
import type { OpenedStore } from "./backends";
import { BARE_STATUS, bareStatusFile, handlerGround, ORIGIN, textOf } from "./handler-ground";
import { type SmtpOptions, startSmtp, type TestSmtp } from "./smtp";

export { BARE_STATUS, ORIGIN, textOf };
export const REFUSED = "refused@example.com";
const BARE_STATUS_FILE = bareStatusFile();
export const config = (smtpUrl: string): ServerConfig =>
  readConfig({ SMTP_URL: smtpUrl, MAIL_FROM: "Noosphere <hello@noosphere.test>", SITE_URL: ORIGIN });

export function updatesGround(available: boolean, open: () => Promise<OpenedStore>) {
  const ground = handlerGround(available, open, { config, smtp: { refuse: [REFUSED] }, ip: "198.51.100.9" });
  const { state, deps, pending } = ground;

  // The unsubscribe page is the built notice; a stand-in file says which page it is.
  const unsubscribed = new URL(`file://${process.cwd()}/tests/support/fixtures/unsubscribed.html`);
  const unsubscribe = new URL(`file://${process.cwd()}/tests/support/fixtures/unsubscribe.html`);
  const handler = createUpdatesHandler(deps, { unsubscribed, unsubscribe });
  const call = (request: Request) => ground.call(handler, request);
  // The status page an update links, on a stand-in for the built page (its slot).
  const statusHandler = createStatusHandler(deps, { status: BARE_STATUS_FILE });
  const status = (request: Request) =>
    statusHandler(request, createContext(request, "198.51.100.9", pending) as Context);

  const DRAFT = {
    subject: "What we built in March",
    body: "Hello!\n\nThe graph view is in: https://noosphere.test/graph.\nMore soon.",
  };

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
  /** Confirmed people who said yes to updates, `<name>@example.com`, in this order. */
  const seedSaidYes = (names: string[]) => seed(names.map((name) => [`${name}@example.com`, "confirmed", true]));
  const updates = () => createUpdateStore(state.store.db, state.store.dataKeys);
  /** DRAFT as an update from the CLI, not sent yet: its id. */
  const newDraft = async () => (await updates().create(DRAFT.subject, DRAFT.body, "CLI", null)).id;
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
  /** The link whose address holds `part` in the first message `to` received. */
  const linkIn = (to: string, part: string) =>
    state.smtp.messages.find((m) => m.to === to)?.links.find((l) => l.includes(part)) ?? "";
  /** Runs `use` with the updates sent through an SMTP server of its own, started with `options`; then closes it. */
  async function throughSmtp(options: SmtpOptions, use: (server: TestSmtp) => Promise<void>) {
    const server = await startSmtp(options);
    const before = state.config;
    try {
      state.config = config(server.url);
      await use(server);
    } finally {
      state.config = before;
      await server.close();
    }
  }

  return {
    state,
    call,
    status,
    unsubscribe,
    seed,
    seedSaidYes,
    updates,
    newDraft,
    send,
    received,
    linkIn,
    throughSmtp,
    DRAFT,
  };
}
