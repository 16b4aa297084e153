import { applyMigrations, NetlifyDev } from "@netlify/dev";

export interface Emulator {
  dev: NetlifyDev;
  /** One request through Netlify's request chain; an unmatched path gets 404.html with a 404, as `netlify dev` does. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** A query on the emulator's Netlify Database. */
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  stop(): Promise<void>;
}

export const ORIGIN = "http://localhost:8888";

/**
 * Netlify's local emulator, `@netlify/dev` (the engine of `netlify dev`), on this project, offline: the
 * features that would call Netlify's services are off. With `database`, it starts Netlify Database's local
 * Postgres, sets NETLIFY_DB_URL for functions, and the migrations are applied as `netlify dev` applies them.
 */
export async function startEmulator({
  database,
  projectRoot = process.cwd(),
}: {
  database: boolean;
  /** Another project than this one (a test's own, made in a temporary folder). */
  projectRoot?: string;
}): Promise<Emulator> {
  const dev = new NetlifyDev({
    projectRoot,
    skipGitignore: true,
    apiToken: "offline",
    aiGateway: { enabled: false },
    blobs: { enabled: false },
    edgeFunctions: { enabled: false },
    geolocation: { enabled: false },
    images: { enabled: false },
    database: { enabled: database },
  });
  await dev.start();
  if (database) {
    if (!dev.db) throw new Error("@netlify/dev did not start its database");
    await applyMigrations(dev.db, "netlify/database/migrations");
  }
  return {
    dev,
    async fetch(path, init) {
      const response = await dev.handle(new Request(new URL(path, ORIGIN), init));
      if (response) return response;
      const page = await dev.handle(new Request(new URL("/404.html", ORIGIN)));
      if (!page) throw new Error("no 404.html in the publish folder: build the site first");
      return new Response(page.body, { status: 404, headers: page.headers });
    },
    async query<Row>(sql: string, params?: unknown[]) {
      if (!dev.db) throw new Error("the emulator was started without its database");
      return (await dev.db.query<Row>(sql, params)).rows;
    },
    stop: () => dev.stop(),
  };
}
