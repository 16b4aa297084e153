/** The server's random secret in SQL: made once by the database (migration 0005), read once per store. */
import type { Db } from "../db/types";

const SECRET = "SELECT value FROM waitlist_secret WHERE name = 'server'";
/** For docs/sql/ (tests/unit/sql-docs.test.ts). */
export const SECRET_SQL = { secret: SECRET } as const;

export function createSecretReader(db: Db) {
  let secret: Promise<Buffer> | undefined;
  return {
    secret(): Promise<Buffer> {
      secret ??= db.query<{ value: string }>(SECRET).then(([row]) => {
        if (!row) throw new Error("The server's secret is missing: apply the migrations (npm run db:migrate).");
        return Buffer.from(row.value, "hex");
      });
      // A failed read (the database down) is tried again next time.
      secret.catch(() => {
        secret = undefined;
      });
      return secret;
    },
  };
}
