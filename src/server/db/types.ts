/** The little a store needs from Postgres: parameterised queries returning rows. */
export interface Db {
  /** How this process reaches Postgres: Neon's HTTP API, the Postgres protocol (node-postgres), or embedded. */
  readonly kind: "neon-http" | "pg" | "pglite";
  query<Row extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}
