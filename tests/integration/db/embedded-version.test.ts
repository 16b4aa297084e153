import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { tempDataDir } from "../../support/helpers";

it("a folder made by another Postgres major version is refused in plain words, and left as it is", async () => {
  const dataDir = tempDataDir("pg18-");
  mkdirSync(join(dataDir, "pg"), { recursive: true });
  writeFileSync(join(dataDir, "pg", "PG_VERSION"), "18\n");
  await expect(openPgliteDb(dataDir)).rejects.toThrow(
    "was made by Postgres 18; this version of the project embeds Postgres 17. Export the list with the version that made it",
  );
  // The lock was let go: a second attempt says the same, not "in use".
  await expect(openPgliteDb(dataDir)).rejects.toThrow("was made by Postgres 18");
});
