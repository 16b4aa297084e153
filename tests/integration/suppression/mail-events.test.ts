/**
 * The providers' endpoints, offline: Resend's events signed with a test secret as Svix signs; Postmark's records as
 * its documentation shows them, behind HTTP Basic; SES's notifications through SNS signed with a test key and a
 * certificate (tests/support/fixtures/sns-test-*.pem, made with openssl for these tests only) served by an
 * injected fetch, in both signature versions. Each verified before anything changes (a wrong signature, topic,
 * certificate host, a tampered or stale message: 401/400 and the tables as they were), each event recorded once,
 * correlated by the message id recorded when it was sent. On PGlite and PostgreSQL.
 */
import { createSign, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../../src/server/config";
import { databaseKey } from "../../../src/server/crypto/keys";
import { createSuppressionStore, listKeysOf } from "../../../src/server/suppression";
import { createMailEventsHandler, type MailProvider } from "../../../src/server/suppression/handler";
import { forgetCertificates } from "../../../src/server/suppression/sns-certificates";
import { backends, type OpenedStore } from "../../support/backends";

const RESEND_SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const TOPIC = "arn:aws:sns:eu-west-1:123456789012:noosphere-ses";
const CERT_URL = "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-test.pem";
const KEY = readFileSync(new URL("../../support/fixtures/sns-test-key.pem", import.meta.url), "utf8");
const CERT = readFileSync(new URL("../../support/fixtures/sns-test-cert.pem", import.meta.url), "utf8");
const PEOPLE = [
  "bounce@example.com",
  "complain@example.com",
  "soft@example.com",
  "ses@example.com",
  "ses2@example.com",
];

describe.each(backends("mailevents").slice(0, 2))("provider endpoints, on %s", (_name, available, open) => {
  const state = {} as { store: Store; config: ServerConfig };
  let opened: OpenedStore | undefined;
  /** Every URL the SES endpoint fetched. */
  const fetched: string[] = [];
  const snsFetch = (async (input: string | URL | Request) => {
    const url = String(input);
    fetched.push(url);
    if (url === CERT_URL) return new Response(CERT);
    if (url.startsWith("https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription")) return new Response("<ok/>");
    return new Response("not found", { status: 404 });
  }) as typeof fetch;
  const deps = { store: async () => state.store, config: () => state.config, snsFetch };
  const post = (provider: MailProvider, body: string, headers: Record<string, string> = {}) =>
    createMailEventsHandler(
      deps,
      provider,
    )(
      new Request(`http://localhost/api/mail-events/${provider}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body,
      }),
    );
  const keyOf = async (email: string) => listKeysOf(await databaseKey(state.store), email);
  const suppression = async (email: string) => createSuppressionStore(state.store.db).get(await keyOf(email));
  /** The tables an event may change, as one value: a refused request leaves it as it was. */
  const everything = async () =>
    JSON.stringify(
      await state.store.db.query(
        `SELECT (SELECT count(*)::int FROM mail_event) AS events, (SELECT count(*)::int FROM mail_suppression) AS suppressed,
          (SELECT count(*)::int FROM waitlist WHERE updates_consent = false) AS withdrawn`,
      ),
    );

  beforeAll(async () => {
    if (!available) return;
    forgetCertificates();
    opened = await open();
    state.store = opened.store;
    state.config = readConfig({
      RESEND_WEBHOOK_SECRET: RESEND_SECRET,
      POSTMARK_WEBHOOK_USER: "postmark",
      POSTMARK_WEBHOOK_PASSWORD: "a long random password, 32 chars",
      SES_SNS_TOPIC_ARN: TOPIC,
    });
    for (const email of PEOPLE) {
      await state.store.db.query(
        "INSERT INTO waitlist (email, status, updates_consent, updates_consent_at, mailbox_key, address_key) VALUES ($1, 'confirmed', true, now(), $2, $3)",
        [email, (await keyOf(email)).mailbox, (await keyOf(email)).address],
      );
    }
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
  });

  describe.skipIf(!available)("Resend (Svix signatures)", () => {
    const signed = (
      payload: unknown,
      id = `msg_${randomBytes(8).toString("hex")}`,
      at = new Date(),
      secret = RESEND_SECRET,
    ) => {
      const body = JSON.stringify(payload);
      const signature = new Webhook(secret).sign(id, at, body);
      return {
        body,
        headers: {
          "svix-id": id,
          "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
          "svix-signature": signature,
        },
      };
    };
    const bounced = {
      type: "email.bounced",
      created_at: "2026-11-26T10:00:00.000Z",
      data: {
        email_id: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c",
        from: "Noosphere <hello@noosphere.test>",
        to: ["bounce@example.com"],
        subject: "What we built",
        bounce: { message: "The recipient's mailbox does not exist.", subType: "General", type: "Permanent" },
      },
    };

    it("refuses the unsigned, the wrongly signed, the tampered and the stale, changing nothing", async () => {
      const before = await everything();
      const good = signed(bounced);
      expect((await post("resend", good.body)).status).toBe(401);
      const wrong = signed(bounced, "msg_wrong", new Date(), `whsec_${randomBytes(24).toString("base64")}`);
      expect((await post("resend", wrong.body, wrong.headers)).status).toBe(401);
      const tampered = good.body.replace("bounce@example.com", "someone@example.com");
      expect((await post("resend", tampered, good.headers)).status).toBe(401);
      const stale = signed(bounced, "msg_stale", new Date(Date.now() - 6 * 60_000));
      expect((await post("resend", stale.body, stale.headers)).status).toBe(401);
      expect(await everything()).toBe(before);
      expect(await suppression("bounce@example.com")).toBeNull();
    });

    it("a permanent bounce suppresses, once however often it is delivered; waitlist.suppressed is written", async () => {
      await state.store.db.query("UPDATE waitlist_webhook_state SET enabled = true");
      const event = signed(bounced, "msg_2mYhX1xLh5bGq2Vb");
      for (let i = 0; i < 3; i++) {
        const response = await post("resend", event.body, event.headers);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual(
          i === 0
            ? { ok: true, recorded: 1, duplicate: 0, unknown: 0 }
            : { ok: true, recorded: 0, duplicate: 1, unknown: 0 },
        );
      }
      expect(await suppression("bounce@example.com")).toMatchObject({
        reason: "hard_bounce",
        source: "resend",
        evidence: "resend: email.bounced Permanent General: The recipient's mailbox does not exist.",
      });
      const [row] = await state.store.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail_event WHERE provider = 'resend'",
      );
      expect(row?.n).toBe(1);
      const hooks = await state.store.db.query<{ type: string; email: string; reason: string; source: string }>(
        `SELECT e.type, e.person->>'email' AS email, e.person->'suppression'->>'reason' AS reason,
          e.person->'suppression'->>'source' AS source FROM waitlist_webhook_event e WHERE e.type = 'waitlist.suppressed'`,
      );
      expect(hooks).toEqual([
        { type: "waitlist.suppressed", email: "bounce@example.com", reason: "hard_bounce", source: "resend" },
      ]);
      await state.store.db.query("UPDATE waitlist_webhook_state SET enabled = false");
    });

    it("a complaint suppresses and withdraws consent to updates, saying so", async () => {
      const event = signed({ type: "email.complained", data: { email_id: "re_2", to: ["complain@example.com"] } });
      expect((await post("resend", event.body, event.headers)).status).toBe(200);
      expect((await suppression("complain@example.com"))?.reason).toBe("complaint");
      const [person] = await state.store.db.query<{ updates_consent: boolean; updates_consent_words: string }>(
        "SELECT updates_consent, updates_consent_words FROM waitlist WHERE email = 'complain@example.com'",
      );
      expect(person).toEqual({ updates_consent: false, updates_consent_words: "withdrawn: a spam complaint (resend)" });
    });

    it("an event names its message by the id recorded at send time, before its address", async () => {
      const list = createSuppressionStore(state.store.db);
      await list.sent("<a1@noosphere.test>", "re_recorded_1", await keyOf("soft@example.com"), "update", null);
      // The event's address is another spelling of nobody on the list: the recorded message decides.
      const event = signed({
        type: "email.bounced",
        data: {
          email_id: "re_recorded_1",
          to: ["SOFT+alias@EXAMPLE.com"],
          bounce: { type: "Permanent", subType: "Suppressed", message: "On the provider's list." },
        },
      });
      expect((await post("resend", event.body, event.headers)).status).toBe(200);
      expect((await suppression("soft@example.com"))?.reason).toBe("hard_bounce");
    });
  });

  describe.skipIf(!available)("Postmark (HTTP Basic)", () => {
    const basic = (user: string, password: string) => ({
      Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
    });
    const AUTH = basic("postmark", "a long random password, 32 chars");
    // Postmark's documented bounce webhook example, its address made one of ours.
    const hardBounce = {
      RecordType: "Bounce",
      MessageStream: "outbound",
      ID: 1234,
      Type: "HardBounce",
      TypeCode: 1,
      Name: "Hard bounce",
      Tag: "Test",
      MessageID: "883953f4-6105-42a2-a16a-77a8eac79483",
      Metadata: { a_key: "a_value" },
      ServerID: 23,
      Description: "The server was unable to deliver your message (ex: unknown user, mailbox not found).",
      Details: "Test bounce details",
      Email: "ses2@example.com",
      From: "sender@example.com",
      BouncedAt: "2019-11-05T16:33:54.9070259Z",
      DumpAvailable: true,
      Inactive: true,
      CanActivate: true,
      Subject: "Test subject",
      Content: "<Full dump of bounce>",
    };

    /** The documented record as Postmark sends it: its 64-bit ID in digits no JavaScript number holds. */
    const documented = JSON.stringify(hardBounce).replace('"ID":1234', '"ID":4323372036854775807');

    it("refuses without the right user and password, changing nothing", async () => {
      const before = await everything();
      const body = documented;
      expect((await post("postmark", body)).status).toBe(401);
      expect((await post("postmark", body, basic("postmark", "wrong"))).status).toBe(401);
      expect((await post("postmark", body, basic("other", "a long random password, 32 chars"))).status).toBe(401);
      expect((await post("postmark", body, { Authorization: "Bearer a long random password" })).status).toBe(401);
      expect(await everything()).toBe(before);
    });

    it("a HardBounce suppresses once; a Transient is a soft bounce; an auto-responder is nothing", async () => {
      const body = documented;
      expect(await (await post("postmark", body, AUTH)).json()).toMatchObject({ recorded: 1 });
      expect(await (await post("postmark", body, AUTH)).json()).toMatchObject({ recorded: 0, duplicate: 1 });
      // The next ID, which JSON.parse would round to the same number, is another event.
      const next = body.replace("4323372036854775807", "4323372036854775806");
      expect(await (await post("postmark", next, AUTH)).json()).toMatchObject({ recorded: 1, duplicate: 0 });
      expect(await suppression("ses2@example.com")).toMatchObject({
        reason: "hard_bounce",
        evidence:
          "postmark: HardBounce 4323372036854775807: The server was unable to deliver your message (ex: unknown user, mailbox not found). Test bounce details",
      });
      const transient = { ...hardBounce, ID: 1, Type: "Transient", TypeCode: 2, Email: "ses@example.com" };
      expect(await (await post("postmark", JSON.stringify(transient), AUTH)).json()).toMatchObject({ recorded: 1 });
      expect(await suppression("ses@example.com")).toBeNull();
      const auto = { ...hardBounce, ID: 2, Type: "AutoResponder", TypeCode: 64, Email: "ses@example.com" };
      expect(await (await post("postmark", JSON.stringify(auto), AUTH)).json()).toMatchObject({ recorded: 0 });
    });

    it("a SpamComplaint suppresses", async () => {
      await state.store.db.query("UPDATE mail_suppression SET lifted_at = now() WHERE true");
      const complaint = { ...hardBounce, RecordType: "SpamComplaint", ID: 42, Type: "SpamComplaint", TypeCode: 512 };
      expect((await post("postmark", JSON.stringify(complaint), AUTH)).status).toBe(200);
      expect((await suppression("ses2@example.com"))?.reason).toBe("complaint");
    });
  });

  describe.skipIf(!available)("Amazon SES through SNS", () => {
    const FIELDS = {
      Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
      SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
    } as const;
    /** Signs as SNS does (AWS's documented string to sign, written out here independently of the verifier). */
    const sns = (fields: Record<string, string>, version: "1" | "2" = "2"): Record<string, string> => {
      const type = fields["Type"] as keyof typeof FIELDS;
      const text = FIELDS[type]
        .filter((name) => fields[name] !== undefined)
        .map((name) => `${name}\n${fields[name]}\n`)
        .join("");
      const signature = createSign(version === "1" ? "RSA-SHA1" : "RSA-SHA256")
        .update(text)
        .sign(KEY, "base64");
      return { ...fields, SignatureVersion: version, Signature: signature, SigningCertURL: CERT_URL };
    };
    const notification = (message: unknown, extra: Record<string, string> = {}) => ({
      Type: "Notification",
      MessageId: `22b80b92-fdea-4c2c-8f9d-${randomBytes(6).toString("hex")}`,
      TopicArn: TOPIC,
      Message: JSON.stringify(message),
      Timestamp: new Date().toISOString(),
      UnsubscribeURL: "https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe",
      ...extra,
    });
    const bounce = (email: string) => ({
      notificationType: "Bounce",
      bounce: {
        bounceType: "Permanent",
        bounceSubType: "General",
        bouncedRecipients: [
          { emailAddress: email, action: "failed", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" },
        ],
        timestamp: "2026-11-26T10:00:00.000Z",
        feedbackId: "0100017c-feedback",
      },
      mail: { messageId: "0100017c-ses-message", source: "hello@noosphere.test", destination: [email] },
    });

    it("refuses a wrong topic, a certificate elsewhere, a tampered or stale message, changing nothing", async () => {
      const before = await everything();
      const wrongTopic = sns(
        notification(bounce("ses@example.com"), { TopicArn: "arn:aws:sns:eu-west-1:999999999999:other" }),
      );
      expect((await post("ses", JSON.stringify(wrongTopic))).status).toBe(401);
      const elsewhere = {
        ...sns(notification(bounce("ses@example.com"))),
        SigningCertURL: "https://evil.example.com/sns.pem",
      };
      expect((await post("ses", JSON.stringify(elsewhere))).status).toBe(401);
      const lookalike = {
        ...sns(notification(bounce("ses@example.com"))),
        SigningCertURL: "https://sns.eu-west-1.amazonaws.com.evil.example/c.pem",
      };
      expect((await post("ses", JSON.stringify(lookalike))).status).toBe(401);
      const tampered = sns(notification(bounce("someone@example.com")));
      tampered["Message"] = JSON.stringify(bounce("ses@example.com"));
      expect((await post("ses", JSON.stringify(tampered))).status).toBe(401);
      const stale = sns(
        notification(bounce("ses@example.com"), { Timestamp: new Date(Date.now() - 6 * 60_000).toISOString() }),
      );
      expect((await post("ses", JSON.stringify(stale))).status).toBe(400);
      const unsigned = { ...notification(bounce("ses@example.com")) };
      expect((await post("ses", JSON.stringify(unsigned))).status).toBe(401);
      expect(await everything()).toBe(before);
      expect(fetched.filter((url) => !url.startsWith("https://sns.eu-west-1.amazonaws.com/"))).toEqual([]);
    });

    it("a permanent bounce signed with SignatureVersion 1 suppresses, once", async () => {
      const body = JSON.stringify(sns(notification(bounce("ses@example.com")), "1"));
      expect(await (await post("ses", body)).json()).toMatchObject({ recorded: 1 });
      expect(await (await post("ses", body)).json()).toMatchObject({ recorded: 0, duplicate: 1 });
      expect(await suppression("ses@example.com")).toMatchObject({
        reason: "hard_bounce",
        evidence: "ses: Bounce Permanent/General: smtp; 550 5.1.1 user unknown",
      });
    });

    it("a complaint signed with SignatureVersion 2 suppresses; the certificate was fetched once", async () => {
      const complaint = {
        notificationType: "Complaint",
        complaint: { complainedRecipients: [{ emailAddress: "ses2@example.com" }], complaintFeedbackType: "abuse" },
        mail: { messageId: "0100017c-other" },
      };
      await state.store.db.query("UPDATE mail_suppression SET lifted_at = now() WHERE true");
      expect((await post("ses", JSON.stringify(sns(notification(complaint), "2")))).status).toBe(200);
      expect(await suppression("ses2@example.com")).toMatchObject({
        reason: "complaint",
        evidence: "ses: Complaint abuse",
      });
      expect(fetched.filter((url) => url === CERT_URL)).toHaveLength(1);
    });

    it("confirms the subscription of its own topic only", async () => {
      const confirm = (topic: string) =>
        sns({
          Type: "SubscriptionConfirmation",
          MessageId: "165545c9-2a5c-472c-8df2-7ff2be2b3b1b",
          Token: "2336412f37f",
          TopicArn: topic,
          Message: "You have chosen to subscribe to the topic.",
          SubscribeURL: `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${topic}&Token=2336412f37f`,
          Timestamp: new Date().toISOString(),
        });
      fetched.length = 0;
      expect((await post("ses", JSON.stringify(confirm("arn:aws:sns:eu-west-1:999999999999:other")))).status).toBe(401);
      expect(fetched).toEqual([]);
      expect((await post("ses", JSON.stringify(confirm(TOPIC)))).status).toBe(200);
      expect(fetched).toEqual([
        `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=2336412f37f`,
      ]);
    });
  });

  it.skipIf(!available)("an endpoint without its secret does not exist", async () => {
    const saved = state.config;
    state.config = readConfig({});
    try {
      expect((await post("resend", "{}")).status).toBe(404);
      expect((await post("postmark", "{}")).status).toBe(404);
      expect((await post("ses", "{}")).status).toBe(404);
    } finally {
      state.config = saved;
    }
  });
});
