/**
 * Every CLI command that changes something is in the audit log from its start, and completed when it ends; a dry
 * run or a read writes nothing but the export's one entry (issue 39). `invite --yes` and `update --yes`, killed
 * half-way and run again, are walked in invitations-cli.test.ts and updates-cli.test.ts. Slow: each command is a
 * process of its own, as the team runs it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { createStore } from "../../src/server/app/store";
import { createAuditLog } from "../../src/server/audit";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir } from "../support/helpers";

const exec = promisify(execFile);
const dataDir = migratedDataDir("cli-audit-");
const KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const BASE = { DATABASE_URL: "", NETLIFY_DB_URL: "", DATA_DIR: dataDir, WEBHOOK_URL: "", WEBHOOK_SECRET: "" };
const cli = (env: Record<string, string>, ...args: string[]) =>
  exec("node_modules/.bin/node", ["--import", "tsx", "scripts/waitlist.ts", ...args], {
    env: { ...process.env, ...BASE, ...env },
  });

async function withStore<T>(use: (store: ReturnType<typeof createStore>) => Promise<T>): Promise<T> {
  const store = createStore(await openPgliteDb(dataDir));
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
/** The entries since entry `since`, oldest first, as "action phase". */
const entriesSince = (since: number) =>
  withStore(async (store) =>
    (await createAuditLog(store.db).page(100, null))
      .filter((e) => e.id > since)
      .reverse()
      .map((e) => ({ what: `${e.action}${e.details["phase"] ? ` ${e.details["phase"]}` : ""}`, details: e.details })),
  );
const lastId = () => withStore(async (store) => (await createAuditLog(store.db).page(1, null))[0]?.id ?? 0);

it("each changing command: an entry at its start and one at its end; reads and dry runs: none", async () => {
  await withStore(async (store) => {
    await store.add({ name: null, email: "stale@example.com", message: null }, "pending");
    await store.db.query("UPDATE waitlist SET created_at = now() - interval '15 days'");
    await store.add({ name: null, email: "ada@example.com", message: null }, "confirmed");
  });
  const walk: Array<[string[], Record<string, string>, string[]]> = [
    [["count"], {}, []],
    [["purge-pending", "--older-than", "14d"], {}, []],
    [["purge-pending", "--older-than", "14d", "--yes"], {}, ["purge-pending started", "purge-pending ended"]],
    [["encrypt"], { DATA_KEY: KEY }, ["encrypt started", "encrypt ended"]],
    [["export"], { DATA_KEY: KEY }, ["export"]],
    [
      ["webhooks", "deliver"],
      {
        DATA_KEY: KEY,
        WEBHOOK_URL: "http://127.0.0.1:9/hooks",
        WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy",
      },
      ["webhooks-deliver started", "webhooks-deliver ended"],
    ],
    [["webhooks", "off"], { DATA_KEY: KEY }, ["webhooks-off started", "webhooks-off ended"]],
  ];
  for (const [args, env, expected] of walk) {
    const since = await lastId();
    await cli(env, ...args);
    const entries = await entriesSince(since);
    expect(
      entries.map((e) => e.what),
      args.join(" "),
    ).toEqual(expected);
    const [start, end] = entries;
    if (expected.length === 2) {
      expect(start?.details).toMatchObject({ phase: "started" });
      expect(end?.details).toMatchObject({ phase: "ended", exit: 0 });
    }
  }
  const [purged, state] = await withStore(async (store) => [
    (await createAuditLog(store.db).page(100, null)).find(
      (e) => e.action === "purge-pending" && e.details["phase"] === "ended",
    ),
    (await store.db.query<{ enabled: boolean }>("SELECT enabled FROM waitlist_webhook_state"))[0],
  ]);
  expect(purged?.details).toMatchObject({ purged: 1 });
  // `webhooks deliver` (with WEBHOOK_URL) switched recording on; `webhooks off` switched it off.
  expect(state).toEqual({ enabled: false });
}, 240_000);
