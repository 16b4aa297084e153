/**
 * 500 concurrent sign-ups over HTTP to the local server's stack (site handler + function + PGlite), 30 % of
 * them repeats in other spellings: exactly the distinct addresses are stored, no 5xx, identical answers.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadFunctions } from "../../dev/local-netlify/functions";
import { createSiteHandler } from "../../dev/local-netlify/site-server";
import { getStore } from "../../src/server/app/instance";
import { releaseEmbeddedStore, useEmbeddedStore } from "../support/helpers";

let server: Server;
let base: string;

beforeAll(async () => {
  await useEmbeddedStore("concurrency-", 100_000); // every request comes from 127.0.0.1
  const handler = createSiteHandler({ publish: "dist", headerRules: [], functions: await loadFunctions() });
  server = createServer((req, res) => void handler(req, res));
  server.maxConnections = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", 1024, resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await releaseEmbeddedStore();
});

const respell = (email: string, i: number) =>
  [email.toUpperCase(), `  ${email}  `, email.replace(/^./, (c) => c.toUpperCase()), `\t${email.toUpperCase()}\n`][
    i % 4
  ] ?? email;

it("500 concurrent sign-ups with 30 % repeats store exactly the distinct addresses", { timeout: 120_000 }, async () => {
  const distinct = Array.from({ length: 350 }, (_, i) => `person${i}@example.com`);
  const repeats = Array.from({ length: 150 }, (_, i) => respell(distinct[(i * 7) % distinct.length] as string, i));
  const emails = [...distinct, ...repeats].sort(() => Math.random() - 0.5);

  const started = performance.now();
  const answers = await Promise.all(
    emails.map(async (email) => {
      const res = await fetch(`${base}/api/waitlist`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, termsAccepted: true }),
      });
      return { status: res.status, body: await res.text() };
    }),
  );
  const elapsed = performance.now() - started;

  const store = await getStore();
  const stored = await store.count();
  const fiveHundreds = answers.filter((a) => a.status >= 500).length;
  console.log(
    `concurrency: ${answers.length} sent (${repeats.length} repeats), ${stored} distinct stored, ${fiveHundreds} 5xx, ${Math.round(elapsed)} ms`,
  );
  expect(fiveHundreds).toBe(0);
  expect(stored).toBe(distinct.length);
  expect(new Set(answers.map((a) => `${a.status} ${a.body}`))).toEqual(new Set(['201 {"ok":true}']));
});
