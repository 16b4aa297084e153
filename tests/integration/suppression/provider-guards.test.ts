/**
 * The provider endpoints against a motivated outsider (issue 48, item 7): a Postmark password short enough to guess
 * is never used (the endpoint answers 500 and the log names the variable, never its value); failed Postmark
 * attempts are limited per network as the console's sign-in is (429 with Retry-After, a guess past the limit never
 * compared); SES junk costs no certificate fetch (topic, shape and age are judged first, and certificates come only
 * from SNS's `.pem` URLs); the certificates kept are at most 16. On the embedded database, with the clock fixed
 * (deps.now) at the start of a ten-minute window in 2030, inside the test certificate's validity, so every
 * Retry-After is exact.
 */
import { createSign } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Context } from "@netlify/functions";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../src/server/config";
import { createMailEventsHandler, type MailProvider } from "../../../src/server/suppression/handler";
import {
  cachedCertificates,
  forgetCertificates,
  isSnsCertificateUrl,
} from "../../../src/server/suppression/sns-certificates";
import { backends, useBackend } from "../../support/backends";
import { fakeContext } from "../../support/helpers";

const PASSWORD = "9f86d081884c7d659a2feaa0c55ad015";
const TOPIC = "arn:aws:sns:eu-west-1:123456789012:noosphere-ses";
const KEY = readFileSync(new URL("../../support/fixtures/sns-test-key.pem", import.meta.url), "utf8");
const CERT = readFileSync(new URL("../../support/fixtures/sns-test-cert.pem", import.meta.url), "utf8");
const SHORT = "POSTMARK_WEBHOOK_PASSWORD is shorter than 24 characters: make one with `openssl rand -hex 16`.";
/** 2030-01-01 at `hours` o'clock UTC: the start of a ten-minute window no other test counts in. */
const windowStart = (hours: number) => Date.UTC(2030, 0, 1, hours);

const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
});
/** A Postmark hard bounce for nobody on the list: a request the guard lets through answers 200, recording nothing. */
const BOUNCE = JSON.stringify({ RecordType: "Bounce", ID: 77, Type: "HardBounce", Email: "nobody@example.com" });

/** How many answers had each status, e.g. `{ 401: 10, 429: 40 }`. */
const tally = (responses: Response[]) => {
  const counts: Record<number, number> = {};
  for (const res of responses) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
};

describe("POSTMARK_WEBHOOK_PASSWORD in the configuration", () => {
  it.each([
    ["letmein", "postmark", "letmein", null, SHORT],
    ["23 characters", "postmark", "0123456789abcdef0123456", null, SHORT],
    ["23 characters, spaces around", "postmark", "  0123456789abcdef0123456  ", null, SHORT],
    ["short, without a user", undefined, "letmein", null, SHORT],
    [
      "24 characters",
      "postmark",
      "0123456789abcdef01234567",
      { user: "postmark", password: "0123456789abcdef01234567" },
      null,
    ],
    ["openssl rand -hex 16", "postmark", PASSWORD, { user: "postmark", password: PASSWORD }, null],
    ["unset", "postmark", undefined, null, null],
  ])("%s", (_name, user, password, webhook, problem) => {
    const { reputation } = readConfig({ POSTMARK_WEBHOOK_USER: user, POSTMARK_WEBHOOK_PASSWORD: password });
    expect({ webhook: reputation.postmarkWebhook, problem: reputation.postmarkWebhookProblem }).toEqual({
      webhook,
      problem,
    });
  });
});

describe.each(backends("providerguards").slice(0, 1))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const state = { config: readConfig({}), now: windowStart(1) };
  /** Every URL the SES endpoint fetched. */
  const fetched: string[] = [];
  const snsFetch = (async (input: string | URL | Request) => {
    const url = String(input);
    fetched.push(url);
    return url.startsWith("https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-")
      ? new Response(CERT)
      : new Response("not found", { status: 404 });
  }) as typeof fetch;
  const deps = {
    store: async () => backend.store,
    config: () => state.config,
    snsFetch,
    now: () => state.now,
  };
  const post = (
    provider: MailProvider,
    body: string,
    headers: Record<string, string> = {},
    context: Context = fakeContext("198.51.100.1"),
  ) =>
    createMailEventsHandler(deps, provider)(
      new Request(`http://localhost/api/mail-events/${provider}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body,
      }),
      context,
    );

  beforeEach(() => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe.skipIf(!available)("Postmark", () => {
    it("a short password: 500 to anyone, right password or not, and one log line naming the variable", async () => {
      state.config = readConfig({ POSTMARK_WEBHOOK_USER: "postmark", POSTMARK_WEBHOOK_PASSWORD: "letmein" });
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const res = await post("postmark", BOUNCE, basic("postmark", "letmein"));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: "This endpoint is not set up correctly: the server's log says why." });
      expect(errors).toHaveBeenCalledTimes(1);
      const line = String(errors.mock.calls[0]?.[0]);
      expect(JSON.parse(line)).toMatchObject({ level: "error", event: "mail_events.postmark_refused", reason: SHORT });
      expect(line).not.toContain("letmein");
    });

    it("ten wrong passwords from one network, then 429 with Retry-After for it, right password or not", async () => {
      state.config = readConfig({ POSTMARK_WEBHOOK_USER: "postmark", POSTMARK_WEBHOOK_PASSWORD: PASSWORD });
      state.now = windowStart(2);
      const from = fakeContext("203.0.113.9");
      const answers: Response[] = [];
      for (let i = 0; i < 11; i++) answers.push(await post("postmark", BOUNCE, basic("postmark", `guess-${i}`), from));
      expect(answers.map((res) => res.status)).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
      expect(answers[10]?.headers.get("retry-after")).toBe("660");
      expect(await answers[10]?.json()).toEqual({
        error: "Too many wrong passwords have been tried: try again after Retry-After seconds.",
      });
      // No credentials at all count too; the right password waits with the rest of its network.
      expect((await post("postmark", BOUNCE, {}, from)).status).toBe(429);
      const right = await post("postmark", BOUNCE, basic("postmark", PASSWORD), from);
      expect(right.status).toBe(429);
      expect(right.headers.get("retry-after")).toBe("660");
      // Another network (another IPv6 /64 as well) is not held back by this one's guesses.
      expect((await post("postmark", BOUNCE, basic("postmark", PASSWORD), fakeContext("203.0.113.10"))).status).toBe(
        200,
      );
      // Two windows on, the network may try again.
      state.now = windowStart(2) + 20 * 60_000;
      expect((await post("postmark", BOUNCE, basic("postmark", PASSWORD), from)).status).toBe(200);
    });

    it("fifty guesses in flight at once from one /64: ten 401s, forty 429s", async () => {
      state.config = readConfig({ POSTMARK_WEBHOOK_USER: "postmark", POSTMARK_WEBHOOK_PASSWORD: PASSWORD });
      state.now = windowStart(3);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          post("postmark", BOUNCE, basic("postmark", `guess-${i}`), fakeContext(`2001:db8:1:2::${i.toString(16)}`)),
        ),
      );
      expect(tally(answers)).toEqual({ 401: 10, 429: 40 });
    });

    it("Postmark's own deliveries never use the allowance up", async () => {
      state.config = readConfig({ POSTMARK_WEBHOOK_USER: "postmark", POSTMARK_WEBHOOK_PASSWORD: PASSWORD });
      state.now = windowStart(4);
      const from = fakeContext("192.0.2.50");
      const delivered: Response[] = [];
      for (let i = 0; i < 25; i++) delivered.push(await post("postmark", BOUNCE, basic("postmark", PASSWORD), from));
      expect(tally(delivered)).toEqual({ 200: 25 });
      expect((await post("postmark", BOUNCE, basic("postmark", "wrong"), from)).status).toBe(401);
    });
  });

  describe.skipIf(!available)("Amazon SES through SNS", () => {
    const FIELDS = ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"] as const;
    /** A Notification signed as SNS signs one (SignatureVersion 2), its certificate at `certUrl`. */
    const signed = (message: string, certUrl: string, fields: Record<string, string> = {}) => {
      const note: Record<string, string> = {
        Type: "Notification",
        MessageId: "22b80b92-fdea-4c2c-8f9d-000000000001",
        TopicArn: TOPIC,
        Message: message,
        Timestamp: new Date(state.now).toISOString(),
        ...fields,
      };
      const text = FIELDS.filter((name) => note[name] !== undefined)
        .map((name) => `${name}\n${note[name]}\n`)
        .join("");
      const signature = createSign("RSA-SHA256").update(text).sign(KEY, "base64");
      return { ...note, SignatureVersion: "2", Signature: signature, SigningCertURL: certUrl };
    };
    const complaint = JSON.stringify({
      notificationType: "Complaint",
      complaint: { complainedRecipients: [{ emailAddress: "nobody@example.com" }], complaintFeedbackType: "abuse" },
      mail: { messageId: "0100017c-junk" },
    });

    /** The SES endpoint on, no certificate held, nothing fetched yet. */
    const freshStart = () => {
      state.config = readConfig({ SES_SNS_TOPIC_ARN: TOPIC });
      state.now = windowStart(5);
      forgetCertificates();
      fetched.length = 0;
    };

    it("two hundred junk messages, each naming a certificate of its own on an SNS host: no fetch at all", async () => {
      freshStart();
      const good = signed(complaint, "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0.pem");
      const junk = (i: number): Record<string, unknown> => {
        const pem = `https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-${i}.pem`;
        const kinds: Array<Record<string, unknown>> = [
          { ...good, Signature: undefined, SignatureVersion: undefined, SigningCertURL: pem },
          { ...good, TopicArn: `arn:aws:sns:eu-west-1:999999999999:other-${i}`, SigningCertURL: pem },
          { ...good, Signature: `junk-${i}`, SigningCertURL: pem },
          { ...good, SignatureVersion: "3", SigningCertURL: pem },
          { ...good, Message: { nested: i }, SigningCertURL: pem },
          { ...good, Timestamp: new Date(state.now - 6 * 60_000).toISOString(), SigningCertURL: pem },
          { ...good, Type: "Junk", SigningCertURL: pem },
          { ...good, SigningCertURL: `https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-${i}` },
          { ...good, SigningCertURL: `https://sns.eu-west-1.amazonaws.com/?cert=${i}.pem` },
          { ...good, SigningCertURL: `http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-${i}.pem` },
        ];
        return kinds[i % kinds.length] as Record<string, unknown>;
      };
      const answers: Response[] = [];
      for (let i = 1; i <= 200; i++) answers.push(await post("ses", JSON.stringify(junk(i))));
      expect(tally(answers)).toEqual({ 400: 60, 401: 140 });
      expect(fetched).toEqual([]);
      expect(cachedCertificates()).toBe(0);
      // The real thing still goes through, with the one fetch it needs.
      expect((await post("ses", JSON.stringify(good))).status).toBe(200);
      expect(fetched).toEqual(["https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0.pem"]);
    });

    it("keeps at most 16 certificates, the least recently used going first", async () => {
      freshStart();
      const url = (i: number) => `https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-${i}.pem`;
      const sizes: number[] = [];
      for (let i = 1; i <= 40; i++) {
        expect((await post("ses", JSON.stringify(signed(complaint, url(i))))).status).toBe(200);
        sizes.push(cachedCertificates());
      }
      expect(Math.max(...sizes)).toBe(16);
      expect(sizes.slice(0, 17)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16]);
      expect(fetched).toHaveLength(40);
      // 25 to 40 are held: 25 again costs nothing and becomes the newest; 24 is fetched again, and 26 goes.
      await post("ses", JSON.stringify(signed(complaint, url(25))));
      expect(fetched).toHaveLength(40);
      await post("ses", JSON.stringify(signed(complaint, url(24))));
      await post("ses", JSON.stringify(signed(complaint, url(25))));
      expect(fetched.slice(40)).toEqual([url(24)]);
      await post("ses", JSON.stringify(signed(complaint, url(26))));
      expect(fetched.slice(40)).toEqual([url(24), url(26)]);
      expect(cachedCertificates()).toBe(16);
    });
  });
});

describe("where a signing certificate may be fetched from", () => {
  it.each([
    ["https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem", true],
    ["https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-3242f8d5.pem", true],
    ["https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-f3ecfb72", false],
    ["https://sns.eu-west-1.amazonaws.com/cert.pem?x=1", false],
    ["https://sns.eu-west-1.amazonaws.com/?file=cert.pem", false],
    ["https://sns.eu-west-1.amazonaws.com/cert.pem#", false],
    ["http://sns.eu-west-1.amazonaws.com/cert.pem", false],
    ["https://sns.eu-west-1.amazonaws.com:8443/cert.pem", false],
    ["https://user:pw@sns.eu-west-1.amazonaws.com/cert.pem", false],
    ["https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem", false],
    ["https://evil.example/sns.eu-west-1.amazonaws.com/cert.pem", false],
    ["https://s3.eu-west-1.amazonaws.com/cert.pem", false],
    ["not a url.pem", false],
  ])("%s: %s", (url, allowed) => {
    expect(isSnsCertificateUrl(url)).toBe(allowed);
  });
});
