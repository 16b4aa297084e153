import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createSiteHandler, type FunctionRoute, type HeaderRule } from "../../dev/local-netlify/site-server";

export interface ServedBuild {
  base: string;
  port: number;
  close: () => Promise<void>;
}

/**
 * A built folder served on loopback as `npm start` serves it (compression, headers, 404s), on a free port, with
 * `functions` answering their paths (a page a function serves, as a visitor receives it).
 */
export async function serveBuild(
  publish: string,
  headerRules: HeaderRule[],
  functions: FunctionRoute[] = [],
): Promise<ServedBuild> {
  const handler = createSiteHandler({ publish, headerRules, functions });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
