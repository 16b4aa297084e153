/** WEBHOOK_URL and WEBHOOK_SECRET as src/server/config/ reads them: off, on, or one line saying what to fix. */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/server/config";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy";
const BAD_SECRET =
  "WEBHOOK_SECRET must be whsec_ followed by at least 24 random bytes in base64: make one with `echo whsec_$(openssl rand -base64 32)`.";

describe("the webhook settings", () => {
  it.each([
    [{}, null, null],
    [{ WEBHOOK_URL: "https://crm.example.com/hooks", WEBHOOK_SECRET: SECRET }, "https://crm.example.com/hooks", null],
    [{ WEBHOOK_URL: "http://localhost:8080/in", WEBHOOK_SECRET: SECRET }, "http://localhost:8080/in", null],
    [{ WEBHOOK_URL: "http://127.0.0.1:9/in", WEBHOOK_SECRET: SECRET }, "http://127.0.0.1:9/in", null],
    [{ WEBHOOK_URL: "http://127.0.1.1:9/in", WEBHOOK_SECRET: SECRET }, "http://127.0.1.1:9/in", null],
    [{ WEBHOOK_URL: "http://[::1]:9/in", WEBHOOK_SECRET: SECRET }, "http://[::1]:9/in", null],
    [
      { WEBHOOK_URL: "http://hooks.localhost/in", WEBHOOK_SECRET: SECRET },
      null,
      'WEBHOOK_URL must be an https:// address (http:// only for localhost), not "http://hooks.localhost".',
    ],
    [
      // No password, path or query of the URL in the line that is printed and logged: any may be a secret.
      { WEBHOOK_URL: "http://team:hunter2@hooks.zapier.com/hooks/catch/123/s3cret?key=s3cret", WEBHOOK_SECRET: SECRET },
      null,
      'WEBHOOK_URL must be an https:// address (http:// only for localhost), not "http://hooks.zapier.com".',
    ],
    [
      // Node's fetch refuses credentials in a URL: every delivery would fail, so it is refused here, and not echoed.
      { WEBHOOK_URL: "https://user:pass@hooks.example.com/hook/PATHSECRET?key=QUERYSECRET", WEBHOOK_SECRET: SECRET },
      null,
      'WEBHOOK_URL must not hold a user or password ("https://hooks.example.com" with user:password@): no delivery could be made; the signature (WEBHOOK_SECRET) authenticates each event.',
    ],
    [
      { WEBHOOK_URL: "http://127.0.0.1.example.com/in", WEBHOOK_SECRET: SECRET },
      null,
      'WEBHOOK_URL must be an https:// address (http:// only for localhost), not "http://127.0.0.1.example.com".',
    ],
    [
      { WEBHOOK_URL: "not a url", WEBHOOK_SECRET: SECRET },
      null,
      'WEBHOOK_URL must be an https:// address (http:// only for localhost), not "a value that is not a URL".',
    ],
    [
      { WEBHOOK_URL: "http://crm.example.com/hooks", WEBHOOK_SECRET: SECRET },
      null,
      'WEBHOOK_URL must be an https:// address (http:// only for localhost), not "http://crm.example.com".',
    ],
    [
      { WEBHOOK_URL: "ftp://x", WEBHOOK_SECRET: SECRET },
      null,
      'WEBHOOK_URL must be an https:// address (http:// only for localhost), not "ftp://x".',
    ],
    [
      { WEBHOOK_URL: "https://crm.example.com/hooks", WEBHOOK_SECRET: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
      null,
      BAD_SECRET,
    ],
    [{ WEBHOOK_URL: "https://crm.example.com/hooks", WEBHOOK_SECRET: "whsec_c2hvcnQ=" }, null, BAD_SECRET],
    [{ WEBHOOK_URL: "https://crm.example.com/hooks", WEBHOOK_SECRET: "whsec_not base64!" }, null, BAD_SECRET],
    [
      { WEBHOOK_URL: "https://crm.example.com/hooks" },
      null,
      "WEBHOOK_URL is set but WEBHOOK_SECRET is not: set it to whsec_ and 24+ random bytes in base64.",
    ],
    [
      { WEBHOOK_SECRET: SECRET },
      null,
      "WEBHOOK_SECRET is set but WEBHOOK_URL is not: set both, or neither (webhooks off).",
    ],
  ])("%j", (env, url, problem) => {
    const config = readConfig(env);
    expect(config.webhook?.url ?? null).toBe(url);
    expect(config.webhookProblem).toBe(problem);
  });
});

it("a webhook setting that cannot be used stops the store from opening, with its one line", async () => {
  const { openStore } = await import("../../src/server/app/instance");
  const config = readConfig({ WEBHOOK_URL: "http://crm.example.com/hooks", WEBHOOK_SECRET: SECRET });
  await expect(openStore(config)).rejects.toThrow(
    'WEBHOOK_URL must be an https:// address (http:// only for localhost), not "http://crm.example.com".',
  );
});
