/**
 * The audit log, for every feature that acts for the team. An action of one statement (a removal, a retry) is
 * recorded by `audit()` once it is done, with what it did; it never throws (the action has happened; a failure to
 * record it is logged where the team looks). An action that takes time and has many effects (a wave, an update, a
 * file of new codes, a test e-mail, the CLI's commands) is recorded by `auditStart()` BEFORE its first effect — if
 * that entry cannot be written, the action does not start — and completed by a second entry when it ends, which
 * names the first (`started`) and says what was done. A run killed half-way leaves its "started" entry: the log
 * never misses an action that had effects.
 */
import type { Db } from "../db/types";
import { describeError, log } from "../log";
import { createAuditLog } from "./store";

export { ACTOR } from "./actors";
export { type AuditEntry, createAuditLog } from "./store";

/** Who acted, as the log names them: an admin's address, or a credential of ACTOR (actors.ts). */
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

/** An action under way: `end()` appends its completion (what it did), naming the entry that started it. */
export interface AuditedAction {
  id: number;
  end(details?: Record<string, unknown>): Promise<void>;
}

/** Records that `action` starts, before its first effect; throws (and the action must not start) if it cannot. */
export async function auditStart(
  db: Db,
  actor: Actor,
  action: string,
  details: Record<string, unknown> = {},
): Promise<AuditedAction> {
  const id = await createAuditLog(db).append(actor, action, { phase: "started", ...details });
  return { id, end: (more = {}) => audit(db, actor, action, { phase: "ended", started: id, ...more }) };
}
