import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const readOwner = (path: string): number | null => {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
    return Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
};

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A takeover left behind by a process that died in its middle is cleared after this long. */
const STALE_TAKEOVER_MS = 10_000;

/**
 * Makes this process the one owner of `dir` (PGlite has no lock of its own, and two processes on one data
 * folder silently corrupt it). Race-free, also when many processes start at once on a lock left by a crash:
 * - a new lock is created complete and atomically (`link` of a file holding our pid: it fails if one exists);
 * - a dead owner's lock is taken over only by the one process that creates `owner.lock.takeover` (`mkdir` is
 *   atomic), which checks the owner again and then replaces the lock atomically (`rename`); the others wait
 *   and then find a live owner.
 * Returns the release function.
 */
export function acquireDirLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, "owner.lock");
  const takeover = `${path}.takeover`;
  const mine = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  const fd = openSync(mine, "wx", 0o600);
  writeSync(fd, String(process.pid));
  closeSync(fd);
  try {
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        linkSync(mine, path);
        return releaser(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const owner = readOwner(path);
      if (owner !== null && owner !== process.pid && alive(owner)) {
        throw new DataDirLockedError(
          `The embedded database in ${dir} is in use by another process (pid ${owner}). Stop it, or point DATA_DIR elsewhere, and try again.`,
        );
      }
      try {
        mkdirSync(takeover);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        clearStaleTakeover(takeover);
        sleep(25);
        continue;
      }
      try {
        // Still the same dead owner? Then the lock is ours, replaced in one step.
        if (readOwner(path) === owner) {
          renameSync(mine, path);
          return releaser(path);
        }
      } finally {
        rmdirSync(takeover);
      }
    }
    throw new DataDirLockedError(`Could not lock the embedded database in ${dir}.`);
  } finally {
    try {
      unlinkSync(mine);
    } catch {
      // Renamed into place, or already gone.
    }
  }
}

function clearStaleTakeover(takeover: string): void {
  try {
    if (Date.now() - statSync(takeover).mtimeMs > STALE_TAKEOVER_MS) rmdirSync(takeover);
  } catch {
    // Finished meanwhile.
  }
}

function releaser(path: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    if (readOwner(path) === process.pid) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    }
  };
  process.on("exit", release);
  return release;
}
