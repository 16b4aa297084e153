/**
 * Preloaded into a process a bench runs (`node --import tsx --import ./bench/lib/memory-probe.ts …`, see cli.ts): it
 * reports that process's own memory when it exits, to the file named by BENCH_MEMORY_FILE. The peak resident set is
 * the kernel's (getrusage's ru_maxrss, the VmHWM /proc shows): exact, however short the peak. The V8 heap has no such
 * mark: it is sampled every 20 ms (and once more at exit), which the process's event loop runs between its own work,
 * so a peak shorter than that can be missed, and most of what it shows is garbage V8 has not collected yet (Node
 * sizes the young generation by the machine's memory, and a full collection waits for the old space to grow). What
 * the process really holds is the heap in use right after each full collection V8 runs by itself (read when the
 * collection is reported, so it includes the little allocated in between): nothing forces one, so the process runs
 * as it would. The timer does not keep the process alive. Beside them, the CPU time the process used (user and
 * system), which the machine's load moves far less than its wall time.
 */
import { writeFileSync } from "node:fs";
import { constants, PerformanceObserver } from "node:perf_hooks";

export interface MemoryReport {
  /** Peak resident set size, bytes (the kernel's high-water mark). */
  maxRss: number;
  /** The highest of each sample of process.memoryUsage(), bytes. */
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  samples: number;
  /** Full collections V8 ran, and the heap in use right after them: the highest, and after the last one. */
  fullGcs: number;
  liveMax: number;
  liveLast: number;
  /** CPU time used, user and system, seconds. */
  cpuSeconds: number;
  /** The Node.js that ran it. */
  node: string;
}

const file = process.env["BENCH_MEMORY_FILE"];
if (file) {
  const peak: MemoryReport = {
    maxRss: 0,
    heapUsed: 0,
    heapTotal: 0,
    external: 0,
    arrayBuffers: 0,
    samples: 0,
    fullGcs: 0,
    liveMax: 0,
    liveLast: 0,
    cpuSeconds: 0,
    node: process.version,
  };
  const sample = () => {
    const now = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.heapTotal = Math.max(peak.heapTotal, now.heapTotal);
    peak.external = Math.max(peak.external, now.external);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
    peak.samples++;
  };
  setInterval(sample, 20).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as { detail?: { kind?: number } }).detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      const live = process.memoryUsage().heapUsed;
      peak.fullGcs++;
      peak.liveMax = Math.max(peak.liveMax, live);
      peak.liveLast = live;
    }
  }).observe({ entryTypes: ["gc"] });
  process.on("exit", () => {
    sample();
    const usage = process.resourceUsage();
    peak.maxRss = usage.maxRSS * 1024;
    peak.cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    writeFileSync(file, JSON.stringify(peak));
  });
}
