/** Server configuration, read from the environment once, on first use. Never sent to the client. */
export interface ServerConfig {
  /** Postgres connection string for Neon (DATABASE_URL, else Netlify Database's NETLIFY_DB_URL). */
  databaseUrl: string | null;
  /** Folder of the embedded database used when no URL is set. */
  dataDir: string;
  /** Where neon() sends queries instead of Neon's own endpoint (a local Neon proxy); null for Neon's. */
  neonFetchEndpoint: string | null;
  /** True inside Netlify's runtime, where an embedded database would be lost: a URL is required there. */
  onNetlify: boolean;
}

export function readConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const url = env["DATABASE_URL"]?.trim() || env["NETLIFY_DB_URL"]?.trim() || null;
  return {
    databaseUrl: url,
    dataDir: env["DATA_DIR"]?.trim() || ".data",
    neonFetchEndpoint: env["NEON_FETCH_ENDPOINT"]?.trim() || null,
    onNetlify: Boolean(env["NETLIFY"] || env["AWS_LAMBDA_FUNCTION_NAME"] || env["NETLIFY_BLOBS_CONTEXT"]),
  };
}

let cached: ServerConfig | undefined;

export function getConfig(): ServerConfig {
  cached ??= readConfig();
  return cached;
}

/** For tests and scripts that change the environment after start. */
export function resetConfig(): void {
  cached = undefined;
}
