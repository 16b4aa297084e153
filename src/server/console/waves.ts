/**
 * Letting people in from the console: a preview, then a wave (invitations.ts) sent in slices. A request sends for
 * at most WAVE_SLICE_MS, then pauses the wave and answers how far it has got, with a Continue button, so no
 * function call nears Netlify's 60 s however slow the SMTP server is. The next slice is the admin's own POST: the
 * console has no JavaScript, and a refresh (`<meta http-equiv="refresh">`, which its CSP would not stop) is a GET,
 * which must never send mail. A paused wave keeps its people, so nobody is taken by another wave or mailed twice;
 * if nobody continues it, the next wave from here or the CLI completes it first. With mail off, the wave is a CSV
 * download of at most CONSOLE_WAVE_MAX rows: under 3 KB each (an address of 255, a name of 100 characters quoted,
 * a link of EARLY_ACCESS_URL and a code), so under 3 MB, within the 6 MB a function may answer whole.
 */
import { randomBytes } from "node:crypto";
import { auditStart } from "../audit";
import type { ServerConfig } from "../config";
import { escapeHtml as h } from "../http/form-page";
import { isId } from "../http/limits";
import { attachment, seeOther } from "../http/responses";
import { isTicket, newTicket } from "../http/ticket";
import type { WaveSlice } from "../invitations";
import {
  continueWave,
  earlyAccessBase,
  InviteConfigError,
  previewWave,
  runWave,
  type WaveOptions,
  waveOwner,
} from "../invitations";
import { log } from "../log";
import { createSmtpMailer } from "../mail/mailer";
import type { Store } from "../store/types";
import { suppressedMailer } from "../suppression";
import { adminIdentity } from "./identity";
import { CONSOLE_PATH, CONSOLE_PATHS, CONSOLE_WAVE_MAX, message, page } from "./pages";
import { waveRecords } from "./wave-record";

/**
 * How long one request sends: 15 s, and the e-mail in flight when it ends may take the mailer's own timeouts (10 s
 * to connect, 10 s for the greeting, 20 s of silence: 40 s at worst), which leaves 5 s of Netlify's 60 for the
 * database. At ten e-mails a second, a request sends about 150.
 */
export const WAVE_SLICE_MS = 15_000;

/** What the console's invitations take beyond the handler's own: the slice (tests make it small). */
export interface WaveDeps {
  waveSlice?: WaveSlice;
}

interface WaveRequest {
  origin: string;
  store: Store;
  config: ServerConfig;
  admin: string;
  fields: Record<string, string>;
  slice: WaveSlice;
}

/** POST /admin/invite: a preview; with a preview's ticket, its wave's first slice; with wave=<id>, that wave's next one. */
export async function invite(request: WaveRequest): Promise<Response> {
  const { store, config, admin, fields } = request;
  const continuing = fields["wave"];
  const next = /^\d{1,4}$/.test(fields["next"] ?? "") ? Number(fields["next"]) : 0;
  if (continuing === undefined && (next < 1 || next > CONSOLE_WAVE_MAX)) {
    return message(
      400,
      "Let people in",
      `Choose how many to invite, from 1 to ${CONSOLE_WAVE_MAX} (larger waves: npm run waitlist -- invite).`,
      admin,
    );
  }
  const ticket = fields["ticket"] ?? "";
  const starting = continuing === undefined && fields["confirm"] === "yes";
  if ((continuing !== undefined && !isId(continuing)) || (starting && !isTicket(ticket))) {
    return message(400, "Let people in", "That wave does not exist: start from the console.", admin);
  }
  let base: URL;
  try {
    base = earlyAccessBase(config.earlyAccessUrl);
  } catch (error) {
    if (error instanceof InviteConfigError) return message(400, "Let people in", error.message, admin);
    throw error;
  }
  if (continuing === undefined && !starting) {
    const preview = await previewWave(store, next, config.referralPlaces);
    return invitePreviewPage(admin, preview, next, config.mail !== null, config.referralPlaces);
  }
  const records = waveRecords(store.db, store.dataKeys);
  // Unique per request, so two requests of one process never pass for each other's wave.
  const owner = waveOwner(`console-${randomBytes(4).toString("hex")}`);
  let wave = Number(continuing);
  // In the log before its first effect (the claim, then invitations); completed below with what it did (a killed
  // run leaves this entry).
  const entry = await auditStart(store.db, admin, "wave", { size: next, ...(starting ? {} : { wave }) });
  if (starting) {
    const claim = await records.claim(ticket, owner, next);
    // A second confirmation of one preview: that preview's wave is under way or done; the dashboard says which.
    if (!claim.claimed) {
      await entry.end({
        size: next,
        wave: claim.wave,
        invited: 0,
        note: "this confirmation's wave was already started",
      });
      return seeOther(`${CONSOLE_PATH}?wave=${claim.wave}`);
    }
    wave = claim.wave;
  }
  const mailer = config.mail
    ? suppressedMailer(createSmtpMailer(config.mail, { pool: true }), config, async () => store)
    : null;
  let csv = "email,name,invite_url\r\n";
  const fileIds: number[] = [];
  const options: WaveOptions = {
    store,
    next,
    delivery: mailer
      ? { kind: "mail", mailer }
      : {
          kind: "csv",
          write: async (text, ids) => {
            csv += text;
            fileIds.push(...ids);
          },
        },
    accessUrl: base,
    siteUrl: request.origin,
    ttlDays: config.inviteTtlDays,
    referralPlaces: config.referralPlaces,
    owner,
    slice: { ...request.slice, people: CONSOLE_WAVE_MAX },
    ...(starting ? { wave } : {}),
  };
  const report = await (starting ? runWave(options) : continueWave(options, wave)).finally(() => mailer?.close());
  if (!report) {
    await entry.end({ size: next, wave, invited: 0, note: "not waiting: another run holds it, or it is done" });
    return notWaitingPage(admin, wave);
  }
  // What this request did goes on the wave's row: the one the dashboard, and a repeated confirmation, read. (A
  // run that completed an older paused wave instead counts on its own; the pause below continues that one.)
  await records.record(wave, { ...report, stopped: report.stopped !== null }, fileIds);
  log("info", "admin.invite", {
    admin: (await adminIdentity(config, store)).logId(admin),
    invited: report.invited,
    refused: report.refused,
    paused: report.paused !== null,
  });
  await entry.end({
    size: next,
    wave,
    invited: report.invited,
    refused: report.refused,
    paused: report.paused !== null,
  });
  // Mail off: the file is the answer. Its people are invited now, so if it never reaches the browser the
  // dashboard offers it again (wave-files.ts says why this, not waiting for the download, which no server sees).
  if (!mailer) return attachment(csv, "text/csv", "invitations", "csv");
  if (report.paused) {
    const so = (await records.read(report.paused.wave)) ?? { invited: report.invited, refused: report.refused };
    return progressPage(admin, { ...report.paused, invited: so.invited, refused: so.refused });
  }
  return seeOther(`${CONSOLE_PATH}?wave=${wave}`);
}

/** The form that sends a paused wave's next slice (what was done so far is on the wave's row). */
const continueForm = (wave: number) =>
  `<form method="post" action="${CONSOLE_PATHS.invite}"><input type="hidden" name="wave" value="${wave}">
<div class="row"><button type="submit">Continue</button><a href="${CONSOLE_PATH}">Back to the console</a></div></form>`;

/** How far a paused wave has got, and the button that goes on. */
function progressPage(admin: string, wave: { wave: number; remaining: number; invited: number; refused: number }) {
  const done = wave.invited + wave.refused;
  const refused =
    wave.refused > 0
      ? ` ${wave.refused} e-mail${wave.refused === 1 ? " was" : "s were"} refused: they stay confirmed.`
      : "";
  return page(
    200,
    "Letting people in",
    `<h1>Letting people in</h1><section>
<p role="status">Invited ${wave.invited} so far.${refused} ${wave.remaining} still to go.</p>
<label for="wave-progress">Sent</label><progress id="wave-progress" max="${done + wave.remaining}" value="${done}">${done} of ${done + wave.remaining}</progress>
<p class="note">${h(`Each step sends for up to ${WAVE_SLICE_MS / 1000} seconds, so the platform never cuts the wave half-way. The rest wait in this wave: no other wave takes them, and nobody gets two e-mails. Continue to send the next ones; if you leave, the next wave started here or with the CLI completes this one first.`)}</p>
${continueForm(wave.wave)}</section>`,
    admin,
  );
}

/** A Continue for a wave that is not paused: another request is sending it (a second click), or it is complete. */
function notWaitingPage(admin: string, wave: number) {
  return page(
    409,
    "Letting people in",
    `<h1>Letting people in</h1><section>
<p role="alert">This wave is not waiting to go on: another request is sending it right now, or it is complete. Nothing was sent by this click.</p>
<p class="note">If another request is sending it, it pauses again within ${WAVE_SLICE_MS / 1000} seconds: continue then. If it is complete, continuing sends nothing.</p>
${continueForm(wave)}</section>`,
    admin,
  );
}

export function invitePreviewPage(
  admin: string,
  preview: { count: number; first: string | null; last: string | null; interrupted: number; movedUp: number },
  next: number,
  mail: boolean,
  places = 0,
): Response {
  if (preview.count === 0 && preview.interrupted === 0) {
    return message(200, "Nobody to invite", "No confirmed sign-up is waiting.", admin);
  }
  const resume =
    preview.interrupted > 0
      ? `<p class="note">An unfinished wave still holds ${preview.interrupted}; if it has stopped or was paused, this completes it first and invites nobody else.</p>`
      : "";
  const who =
    preview.count > 0
      ? `Invite ${preview.count} ${preview.count === 1 ? "person" : "people"}, who signed up from ${preview.first?.slice(0, 10)} to ${preview.last?.slice(0, 10)} (UTC)?`
      : "Complete the unfinished wave?";
  const order =
    preview.count > 0 && places > 0
      ? `<p class="note">In line order: ${preview.movedUp === 0 ? "nobody" : `${preview.movedUp} ${preview.movedUp === 1 ? "person" : "people"}`} of them moved up by referrals (each counted referral moves its referrer ${places} ${places === 1 ? "place" : "places"}).</p>`
      : "";
  const how = mail
    ? "Each gets an e-mail with a single-use code."
    : "E-mail is off: you'll download a CSV of email, name and invite link for your own mail tool.";
  return page(
    200,
    "Let people in",
    `<h1>Let people in</h1><section><p>${h(who)}</p>${order}<p class="note">${h(how)}</p>${resume}
<form method="post" action="${CONSOLE_PATHS.invite}"><input type="hidden" name="next" value="${next}"><input type="hidden" name="confirm" value="yes"><input type="hidden" name="ticket" value="${newTicket()}">
<div class="row"><button type="submit">${preview.count > 0 ? `Invite ${preview.count}` : "Complete the wave"}</button><a href="${CONSOLE_PATH}">Cancel</a></div></form></section>`,
    admin,
  );
}
