/**
 * A webhook receiver on 127.0.0.1 for tests, as the team's own tool would be: it verifies every request with the
 * `standardwebhooks` package (a forged or stale one gets a 400 and is counted as bad), answers as the test says
 * (a status and a body, or never: "hang"), and keeps what it saw.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Delivery {
  id: string;
  type: string;
  body: Record<string, unknown>;
  /** The status it was answered. */
  answered: number;
}

export async function startWebhookReceiver(secret: string) {
  const verifier = new Webhook(secret);
  /** The webhook-id of every verified request, answered or not, in order. */
  const requests: string[] = [];
  /** Every request answered, in order. */
  const received: Delivery[] = [];
  const state = {
    /** The answer to the `tries`-th request of event `id` (of `type`): a status, or "hang" (never answered). */
    answer: (_id: string, _tries: number, _type: string): number | "hang" => 200,
    /** The body of that answer. */
    body: (_id: string, _tries: number): string | Buffer => "ok",
    bad: 0,
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const payload = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    try {
      verifier.verify(payload, headers);
    } catch {
      state.bad++;
      res.writeHead(400).end("bad signature");
      return;
    }
    const id = headers["webhook-id"] ?? "";
    requests.push(id);
    const tries = requests.filter((seen) => seen === id).length;
    const body = JSON.parse(payload) as Record<string, unknown>;
    const type = String(body["type"]);
    const answer = state.answer(id, tries, type);
    if (answer === "hang") return;
    received.push({ id, type, body, answered: answer });
    res.writeHead(answer, { "Content-Type": "text/plain; charset=utf-8" }).end(state.body(id, tries));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests,
    received,
    state,
    /** The requests answered with a 2xx. */
    acknowledged: () => received.filter((r) => r.answered >= 200 && r.answered < 300),
    /** Forgets what it saw and answers 200 "ok" again. */
    reset() {
      requests.length = 0;
      received.length = 0;
      state.answer = () => 200;
      state.body = () => "ok";
      state.bad = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
