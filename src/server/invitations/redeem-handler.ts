/**
 * POST /api/invites/redeem, for the product: `Authorization: Bearer <INVITE_REDEEM_TOKEN>` and `{"code": "…"}`.
 * The pipeline of the other functions (method → token → content type → size → parse → validate → store →
 * answer): 200 `{email, name}` once, and the person joins; 409 for a code already used, 410 for an expired one,
 * 404 for one that never was (or is not shaped like one), 403 for a status page's code while SERVER_SECRET is not
 * set (none is made then: a copy of the database could make one), 401 for a wrong or missing token (429 past the
 * failed attempts bearer.ts allows); 503 when the database does not answer, or DATA_KEY cannot open the rows, and then
 * the code is left as it was. Without INVITE_REDEEM_TOKEN the endpoint does not exist (404); with one too short,
 * 503. Logs say what happened, never the code or the address.
 */
import type { Context } from "@netlify/functions";
import { ACTOR, audit } from "../audit";
import type { ServerConfig } from "../config";
import { accessCodeKey } from "../crypto/keys";
import { hashToken } from "../crypto/tokens";
import { guardBearer, refusedToken } from "../http/bearer";
import { BODY_LIMITS } from "../http/limits";
import { mediaType, readJson } from "../http/request-body";
import { json } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import type { RedeemOutcome, Store } from "../store/types";
import { accessCodePerson, isAccessCode } from "./access-code";
import { INVITE_CODE_PATTERN } from "./invite-store";

const JSON_TYPE = "application/json";

export interface RedeemDeps {
  store: () => Promise<Store>;
  config: () => ServerConfig;
}

const UNAVAILABLE = "Invitations are unavailable right now. Please try again.";

const unknown = () => json(404, { error: "No such invite code." });

/** A status page's code, while the site has no SERVER_SECRET: refused; the e-mailed code still works. */
export const NO_SERVER_SECRET =
  "Codes from status pages are not accepted until SERVER_SECRET is set; the code in the invitation e-mail works.";

export function createRedeemHandler(deps: RedeemDeps) {
  return async (req: Request, context?: Context): Promise<Response> => {
    const config = deps.config();
    const refused = refusedToken(config.inviteRedeemTokenProblem, "invites.redeem");
    if (refused) return refused;
    if (!config.inviteRedeemToken) return json(404, { error: "Not found." });
    if (req.method !== "POST") return json(405, { error: "Method not allowed. Use POST." }, { Allow: "POST" });
    const denied = await guardBearer(req, context, {
      token: config.inviteRedeemToken,
      realm: "invites",
      event: "invites.redeem",
      unavailable: UNAVAILABLE,
      config,
      store: deps.store,
    });
    if (denied) return denied;
    const code = await codeOf(req);
    if (code instanceof Response) return code;
    try {
      const store = await deps.store();
      const result = await redeemCode(store, config, code);
      log("info", "invites.redeem", { outcome: result.outcome });
      await audit(store.db, ACTOR.redeemToken, "invite.redeem", { outcome: result.outcome });
      return answer(result);
    } catch (error) {
      log("error", "invites.redeem_failed", describeError(error));
      return json(503, { error: UNAVAILABLE });
    }
  };
}

/** The body's code (content type → size → parse → shape), or the answer that refuses it. */
async function codeOf(req: Request): Promise<string | Response> {
  if (mediaType(req) !== JSON_TYPE) return json(415, { error: `Content-Type must be ${JSON_TYPE}.` });
  const read = await readJson(req, BODY_LIMITS.json);
  if ("status" in read) return json(read.status, { error: read.message });
  const code = (read.body as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !INVITE_CODE_PATTERN.test(code)) {
    log("info", "invites.redeem", { outcome: "malformed" });
    return unknown();
  }
  return code;
}

type Redeemed = RedeemOutcome | { outcome: "no-server-secret" };

/** The code redeemed, once the rows can be opened: an e-mailed code (by its hash), else a status page's. */
async function redeemCode(store: Store, config: ServerConfig, code: string): Promise<Redeemed> {
  // Redeeming marks the person joined before their row is opened: a key that cannot open the rows (wrong, or
  // missing beside sealed rows) would spend the code on an error. Refused first (a DataKeyError, thrown), the
  // code stays usable once the key is right.
  await withTimeout(store.checkDataKey(), config.dbTimeoutMs);
  // A code from an e-mail (its hash is kept), else one a status page derived for its person (access-code.ts),
  // only under SERVER_SECRET: without it no page shows one, and one derived otherwise is a copy's forgery.
  const key = accessCodeKey(config);
  const redeem = async (): Promise<Redeemed> => {
    const byHash = await store.invites.redeem(hashToken(code));
    const person = byHash.outcome === "unknown" ? accessCodePerson(code) : null;
    if (person === null) return byHash;
    if (!key) return { outcome: "no-server-secret" };
    return store.invites.redeemAccess(person, (expiresAt) => isAccessCode(key, code, person, expiresAt));
  };
  return withTimeout(redeem(), config.dbTimeoutMs);
}

/** What the product is told. */
function answer(result: Redeemed): Response {
  switch (result.outcome) {
    case "joined":
      return json(200, { email: result.email, name: result.name });
    case "used":
      return json(409, { error: "This invite code has already been used." });
    case "expired":
      return json(410, { error: "This invite code has expired." });
    case "unknown":
      return unknown();
    case "no-server-secret":
      return json(403, { error: NO_SERVER_SECRET });
  }
}
