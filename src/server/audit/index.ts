/**
 * The audit log, for every feature that acts for the team: `audit()` appends an entry and never throws (the action
 * it records has happened; a failure to record it is logged where the team looks).
 */
import type { Db } from "../db/types";
import { describeError, log } from "../log";
import { createAuditLog } from "./store";

export { type AuditEntry, createAuditLog } from "./store";

/** Who acted, as the log names them: an admin's address, the admin token, a bearer token's purpose, or the CLI. */
export type Actor = string;

export async function audit(
  db: Db,
  actor: Actor,
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  try {
    await createAuditLog(db).append(actor, action, details);
  } catch (error) {
    log("error", "audit.append_failed", { action, ...describeError(error) });
  }
}
