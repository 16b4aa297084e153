/**
 * How the console's page tests over HTTP read what the handler answered (console-people.test.ts,
 * console-person-audit.test.ts, console-person-timeline.test.ts, console-waves.test.ts): a page as a person reads
 * it, one section of it, and from the harness's store the audit log's newest entry and a person's id. Apart from
 * console-harness.ts, which is the ground the requests go to.
 */
import { createAuditLog } from "../../src/server/audit";
import { h } from "./console-harness";

/** What a person reads: the tags gone, the entities as characters, the spaces collapsed. */
export const readText = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ")
    .trim();
/** One section of a page (by the id of its heading), as read. */
export const sectionText = (html: string, id: string) =>
  readText(new RegExp(`<section aria-labelledby="${id}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? "");
/** The newest entry's id: the log is append-only (no entry can be deleted), so a test reads what follows it. */
export const lastAudit = async () => (await createAuditLog(h.store.db).page(1, null))[0]?.id ?? 0;
/** A person's id, by their address. */
export const idOf = async (email: string) =>
  Number((await h.store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = $1", [email]))[0]?.id);
