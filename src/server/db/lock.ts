import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
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

/**
 * Makes this process the one owner of `dir`: PGlite has no lock of its own, and two processes on one data
 * folder silently corrupt it. A lock left by a dead process is taken over. Returns the release function.
 */
export function acquireDirLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "owner.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          if (readFileSync(path, "utf8") === String(process.pid)) unlinkSync(path);
        } catch {
          // Already gone.
        }
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(readFileSync(path, "utf8"), 10);
      if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
        throw new DataDirLockedError(
          `The embedded database in ${dir} is in use by another process (pid ${owner}). Stop it, or point DATA_DIR elsewhere, and try again.`,
        );
      }
      unlinkSync(path);
    }
  }
  throw new DataDirLockedError(`Could not lock the embedded database in ${dir}.`);
}
