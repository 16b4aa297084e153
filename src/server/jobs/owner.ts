/**
 * Who runs a long job, written on its row: this host and process, so a later run on the same host can tell a dead
 * owner at once, and anyone can tell one that stopped beating.
 */
import { hostname } from "node:os";

/**
 * The owner of a job no run holds, so the next run may take it at once. The stored value is "paused" (rows already
 * hold it); it does not mean the job is paused: `paused_reason` says that.
 */
export const NO_OWNER = "paused";

/** This process, as the owner of a job it runs (`role`: cli, console-…). */
export const runOwner = (role = "cli") => `${role}@${hostname()}:${process.pid}`;

/** Whether a job's owner is gone: nobody (NO_OWNER), silent for too long (`stale`), or a process of this host that has ended. */
export function isOwnerDead(owner: string, stale: boolean): boolean {
  if (stale || owner === NO_OWNER) return true;
  const match = /@(.+):(\d+)$/.exec(owner);
  if (!match || match[1] !== hostname()) return false;
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
