/**
 * Test-only: a small server speaking the `/sql` HTTP protocol of @neondatabase/serverless's `neon()`, in
 * front of a real PostgreSQL. Neon's own proxy is not available offline; this stands where it would, so the
 * driver, our SQL and a real Postgres meet in the contract test. It follows the driver's documented shape:
 * request `POST {query, params}` with Neon-Connection-String / Neon-Raw-Text-Output / Neon-Array-Mode
 * headers; response 200 `{fields: [{name, dataTypeID}], rows: [[text]], command, rowCount}`, or 400
 * `{message, code, detail, constraint, ...}` for a database error.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { neonConfig } from "@neondatabase/serverless";
import pg from "pg";
import { poolCloser } from "../../src/server/db/pg";

export interface SqlProxy {
  url: string;
  requests: Array<{ headers: Record<string, string | string[] | undefined>; body: unknown }>;
  close(): Promise<void>;
}

const ERROR_FIELDS = [
  "message",
  "code",
  "detail",
  "hint",
  "severity",
  "position",
  "schema",
  "table",
  "column",
  "constraint",
];

export async function startSqlProxy(): Promise<SqlProxy> {
  const pools = new Map<string, { pool: pg.Pool; close: () => Promise<void> }>();
  const requests: SqlProxy["requests"] = [];
  const poolFor = (connectionString: string) => {
    let entry = pools.get(connectionString);
    if (!entry) {
      const pool = new pg.Pool({ connectionString, max: 10 });
      // Neon's proxy outlives a broken idle connection; so does this one (pg-pool throws an unheard 'error').
      pool.on("error", () => {});
      entry = { pool, close: poolCloser(pool, 10_000) };
      pools.set(connectionString, entry);
    }
    return entry.pool;
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { query: string; params: unknown[] };
    requests.push({ headers: req.headers, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    const connection = req.headers["neon-connection-string"];
    if (req.method !== "POST" || req.url !== "/sql" || typeof connection !== "string") {
      return send(404, { message: "not the /sql endpoint" });
    }
    try {
      const result = await poolFor(connection).query({
        text: body.query,
        values: body.params,
        rowMode: "array",
        types: { getTypeParser: () => (value: string) => value },
      });
      send(200, {
        command: result.command,
        rowCount: result.rowCount,
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        rows: result.rows,
      });
    } catch (error) {
      const fields = error as Record<string, unknown>;
      send(400, Object.fromEntries(ERROR_FIELDS.map((key) => [key, fields[key]])));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sql`,
    requests,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...pools.values()].map((entry) => entry.close()));
    },
  };
}

/**
 * A proxy that Neon's driver sends every `neon()` query to until `close()`, which restores the endpoint before.
 * The driver takes its endpoint only process-wide (`NeonConfigGlobalOnly`), so this is the one place tests set it.
 */
export async function routeNeonThroughProxy(): Promise<SqlProxy> {
  const proxy = await startSqlProxy();
  const previous = neonConfig.fetchEndpoint;
  neonConfig.fetchEndpoint = proxy.url;
  return {
    ...proxy,
    async close() {
      neonConfig.fetchEndpoint = previous;
      await proxy.close();
    },
  };
}
