import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { TERMS_VERSION } from "../../src/server/terms-version";

const TERMS = "src/content/terms";

it("the terms version is the hash of the terms the site serves (change both together)", () => {
  const hash = createHash("sha256");
  for (const file of readdirSync(TERMS)
    .filter((name) => name.endsWith(".md"))
    .sort()) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(join(TERMS, file)));
    hash.update("\n");
  }
  expect(TERMS_VERSION).toBe(hash.digest("hex").slice(0, 16));
  expect(TERMS_VERSION).toMatch(/^[0-9a-f]{16}$/);
});
