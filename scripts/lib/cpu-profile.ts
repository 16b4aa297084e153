import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time by package or file, from the .cpuprofile files in `dir`: where the server's time goes. */
export function summariseProfiles(dir: string, top = 12): Array<{ where: string; share: number }> {
  const totals = new Map<string, number>();
  let all = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      const delta = profile.timeDeltas[i] ?? 0;
      if (!node) return;
      const url = node.callFrame.url;
      const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
      const where = url.startsWith("wasm://")
        ? "@electric-sql/pglite (Postgres in WebAssembly)"
        : pkg
          ? pkg
          : url.includes("/work/") || url.startsWith("file://")
            ? `app: ${url.replace(/^.*?\/(src|scripts|netlify)\//, "$1/")}`
            : node.callFrame.functionName
              ? `(${node.callFrame.functionName})`
              : url
                ? `node: ${url.replace(/^node:/, "")}`
                : "(native/idle)";
      totals.set(where, (totals.get(where) ?? 0) + delta);
      all += delta;
    });
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, time]) => ({ where, share: time / all }));
}
