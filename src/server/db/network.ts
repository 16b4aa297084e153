import type { ServerConfig } from "../config";
import type { Connection } from "./connection";
import { createNeonHttpDb, type NeonSql } from "./neon-http";
import { createPgDb, poolOptions } from "./pg";
import type { Db } from "./types";

/**
 * Opens a database reached over the network. Drivers are imported on first use (a dynamic `import()` of
 * the package itself, which bundlers keep dynamic), so importing the function stays light and an answer that
 * never touches the database (a 405, a 415) never pays for them. Nothing here reaches the embedded database.
 */
export async function openNetworkDb(
  connection: Exclude<Connection, { kind: "embedded" }>,
  config: ServerConfig,
): Promise<Db> {
  if (config.neonFetchEndpoint) {
    // A Neon-compatible local proxy (tests): the driver only has a global setting for it.
    const { neonConfig } = await import("@neondatabase/serverless");
    neonConfig.fetchEndpoint = config.neonFetchEndpoint;
  }
  switch (connection.kind) {
    case "neon-http":
      return createNeonHttpDb(connection.url, config.dbTimeoutMs);
    case "pg":
      return createPgDb(connection.url, config.dbTimeoutMs);
    case "netlify-database": {
      // Netlify Database's own client makes the platform's driver choice (NETLIFY_DB_DRIVER).
      const { getDatabase } = await import("@netlify/database");
      const database = getDatabase();
      if (database.driver === "serverless") {
        // Its client is created with neon()'s defaults (rows as objects), which is what ours expects.
        return createNeonHttpDb(database.httpClient as NeonSql, config.dbTimeoutMs);
      }
      // The client's pool opens no connection until the first query; give it the same bounds as ours.
      Object.assign(database.pool.options, poolOptions(config.dbTimeoutMs));
      return createPgDb(database.pool, config.dbTimeoutMs);
    }
  }
}
