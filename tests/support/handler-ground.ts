/**
 * What the handler suites' grounds share (consent-harness, referrals-harness, updates-harness), written once: for
 * one backend's describe block, a real SMTP server and the backend's store, opened before its tests and closed
 * after; the configuration a test may replace; calls to a handler as the platform makes them, each waiting for its
 * after-the-answer work (the e-mails); and the stand-in for the built status page its slot is filled in.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import type { Store } from "../../src/server/app/store";
import type { ServerConfig } from "../../src/server/config";
import type { OpenedStore } from "./backends";
import { type SmtpOptions, startSmtp, type TestSmtp } from "./smtp";

export const ORIGIN = "http://localhost:4321";

/** A page's text, without its tags. */
export const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** Stand-in for the built status page: the header's waitlist button, as built, and the slot the function fills. */
export const BARE_STATUS = `<!doctype html><header><a href="/join" data-waitlist-open class="rounded-full px-4">Join the Waitlist</a></header><main><section id="status-body" aria-label="Your status">This status link doesn't work</section></main>`;

/** BARE_STATUS as a file in a fresh folder, where a status handler reads its page. */
export function bareStatusFile(): URL {
  const file = join(mkdtempSync(join(tmpdir(), "status-page-")), "status.html");
  writeFileSync(file, BARE_STATUS);
  return pathToFileURL(file);
}

export type Handler = (request: Request, context: Context) => Promise<Response>;

export interface GroundOptions {
  /** The configuration each suite starts from, given the SMTP server's URL. */
  config(smtpUrl: string): ServerConfig;
  smtp?: SmtpOptions;
  /** The address calls come from unless a call names another. */
  ip: string;
}

/** Registers the hooks (only when the backend is available) and returns the state, the deps and the call. */
export function handlerGround(available: boolean, open: () => Promise<OpenedStore>, options: GroundOptions) {
  const state = {} as { smtp: TestSmtp; store: Store; config: ServerConfig };
  let opened: OpenedStore | undefined;
  const deps = { store: async () => state.store, config: () => state.config };
  const pending = new Set<Promise<unknown>>();

  beforeAll(async () => {
    if (!available) return;
    state.smtp = await startSmtp(options.smtp);
    opened = await open();
    state.store = opened.store;
    state.config = options.config(state.smtp.url);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await state.smtp?.close();
  });

  /** Calls `handler` as the platform does, then waits for its after-the-answer work (the e-mail). */
  async function call(handler: Handler, request: Request, ip = options.ip): Promise<Response> {
    const response = await handler(request, createContext(request, ip, pending));
    while (pending.size) await Promise.all(pending);
    return response;
  }

  return { state, deps, pending, call };
}
