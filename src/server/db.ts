/** The little a store needs from Postgres: parameterised queries returning rows. */
export interface Db {
  readonly kind: "neon" | "pglite";
  query<Row extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}
