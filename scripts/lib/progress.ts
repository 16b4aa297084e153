/**
 * The CLI's progress while it sends in the foreground (an update, a wave): a bar from cli-progress on a terminal
 * (counts, rate, time left), redrawn in place; plain lines at every tenth when standard error is not a terminal (a
 * log, CI), so a file is not filled with redraws. On standard error: standard output carries a wave's CSV.
 */
import cliProgress from "cli-progress";

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} · {percentage}% · {eta_formatted} left`,
        stream,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total) {
        if (!started) {
          bar.start(total, 0);
          started = true;
        }
        bar.setTotal(total);
        bar.update(done);
      },
      stop() {
        if (started) bar.stop();
      },
    };
  }
  let tenth = 0;
  return {
    update(done, total) {
      const now = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (now <= tenth && done !== total) return;
      tenth = now;
      stream.write(`${label}: ${done} of ${total} (${Math.floor((done / Math.max(total, 1)) * 100)}%)\n`);
      if (done === total) tenth = 10;
    },
    stop() {},
  };
}
