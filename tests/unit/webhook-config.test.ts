/** WEBHOOK_URL and WEBHOOK_SECRET as src/server/config/ reads them: off, on, or one line saying what to fix. */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/server/config";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy";
const BAD_SECRET =
  "WEBHOOK_SECRET must be whsec_ followed by at least 24 random bytes in base64: make one with `echo whsec_$(openssl rand -base64 32)`.";

describe("the webhook settings", () => {
  /** What readConfig makes of `env`: the URL it delivers to (null: off), and the one line saying what to fix. */
  const read = (env: Record<string, string>) => {
    const config = readConfig(env);
    return [config.webhook?.url ?? null, config.webhookProblem];
  };

  it("are off when neither is set", () => {
    expect(read({})).toEqual([null, null]);
  });

  it.each([
    "https://crm.example.com/hooks",
    "http://localhost:8080/in",
    "http://127.0.0.1:9/in",
    "http://127.0.1.1:9/in",
    "http://[::1]:9/in",
  ])("deliver to %s", (url) => {
    expect(read({ WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET })).toEqual([url, null]);
  });

  // No password, path or query of the URL in the line that is printed and logged: any may be a secret.
  it.each([
    ["http://hooks.localhost/in", "http://hooks.localhost"],
    ["http://team:hunter2@hooks.zapier.com/hooks/catch/123/s3cret?key=s3cret", "http://hooks.zapier.com"],
    ["http://127.0.0.1.example.com/in", "http://127.0.0.1.example.com"],
    ["not a url", "a value that is not a URL"],
    ["http://crm.example.com/hooks", "http://crm.example.com"],
    ["ftp://x", "ftp://x"],
  ])("refuse %s as not https://, naming it %s", (url, named) => {
    expect(read({ WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET })).toEqual([
      null,
      `WEBHOOK_URL must be an https:// address (http:// only for localhost), not "${named}".`,
    ]);
  });

  it.each(["MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_c2hvcnQ=", "whsec_not base64!"])(
    "refuse the secret %s",
    (secret) => {
      expect(read({ WEBHOOK_URL: "https://crm.example.com/hooks", WEBHOOK_SECRET: secret })).toEqual([
        null,
        BAD_SECRET,
      ]);
    },
  );

  it.each([
    [
      // Node's fetch refuses credentials in a URL: every delivery would fail, so it is refused here, and not echoed.
      { WEBHOOK_URL: "https://user:pass@hooks.example.com/hook/PATHSECRET?key=QUERYSECRET", WEBHOOK_SECRET: SECRET },
      'WEBHOOK_URL must not hold a user or password ("https://hooks.example.com" with user:password@): no delivery could be made; the signature (WEBHOOK_SECRET) authenticates each event.',
    ],
    [
      { WEBHOOK_URL: "https://crm.example.com/hooks" },
      "WEBHOOK_URL is set but WEBHOOK_SECRET is not: set it to whsec_ and 24+ random bytes in base64.",
    ],
    [{ WEBHOOK_SECRET: SECRET }, "WEBHOOK_SECRET is set but WEBHOOK_URL is not: set both, or neither (webhooks off)."],
  ])("refuse %j", (env, problem) => {
    expect(read(env)).toEqual([null, problem]);
  });
});

it("a webhook setting that cannot be used stops the store from opening, with its one line", async () => {
  const { openStore } = await import("../../src/server/app/instance");
  const config = readConfig({ WEBHOOK_URL: "http://crm.example.com/hooks", WEBHOOK_SECRET: SECRET });
  await expect(openStore(config)).rejects.toThrow(
    'WEBHOOK_URL must be an https:// address (http:// only for localhost), not "http://crm.example.com".',
  );
});
