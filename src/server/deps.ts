/**
 * What every handler is built from: the store, the configuration and the mailer, each made on first use. The
 * functions in netlify/functions/ pass the process's; a test passes its own. Beneath the features, so each takes
 * the same shape without importing another's handler.
 */
import type { ServerConfig } from "./config";
import type { Mailer } from "./mail/mailer";
import type { Store } from "./store/types";

export interface ServerDeps {
  /** The store to write to, opened on first use (the process's, or a test's own). */
  store: () => Promise<Store>;
  /** The configuration, read once (the process's, or a test's own). */
  config: () => ServerConfig;
  /** The mailer for e-mails while mail is configured (default: SMTP_URL's, made on first use). */
  mailer?: (config: ServerConfig) => Mailer | null;
}
