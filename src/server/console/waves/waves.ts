/**
 * Letting people in from the console: a preview naming whom it takes (wave-preview.tsx), then a wave
 * (invitations/wave.ts). With e-mail on, the confirming
 * click reserves the wave's people and starts it in the background (src/server/jobs/): the operator lands on the
 * wave's own page (jobs.ts: its bar, Pause, Resume, Cancel), and the wave runs to the end with no further request,
 * any size the CLI allows. A reserved wave keeps its people, so nobody is taken by another wave or mailed twice.
 * With mail off, the wave is a CSV download of at most CONSOLE_WAVE_MAX rows, answered whole: under 3 KB each (an
 * address of 255, a name of 100 characters quoted, a link of EARLY_ACCESS_URL and a code), so under 3 MB, within
 * the 6 MB a function may answer whole.
 */
import { randomBytes } from "node:crypto";
import { type AuditedAction, auditStart } from "../../audit";
import type { ServerConfig } from "../../config";
import { isId } from "../../http/limits";
import { attachment, seeOther } from "../../http/responses";
import { isTicket } from "../../http/ticket";
import type { WaveSlice } from "../../invitations";
import {
  earlyAccessBase,
  InviteConfigError,
  previewWave,
  reserveWave,
  runWave,
  type WaveOptions,
  waveOwner,
} from "../../invitations";
import { previewPeople, waveRecords } from "../../invitations/wave-record";
import { releaseJob } from "../../jobs";
import { log } from "../../log";
import type { Store } from "../../store/types";
import { type JobDeps, jobPath, startJob } from "../jobs/jobs";
import { CONSOLE_PATH, CONSOLE_WAVE_MAX, CONSOLE_WAVE_MAX_MAIL, message } from "../pages";
import { adminIdentity } from "../sign-in/identity";
import { inviteMatching } from "./wave-matching";
import { invitePreviewPage } from "./wave-preview";

/**
 * How long one request writes a mail-off wave's file: the rows are bounded by CONSOLE_WAVE_MAX, and this bounds
 * the time as a function call must end within Netlify's 60 s.
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
  deps: JobDeps;
}

/** The wave asked for, checked: its size, its preview's ticket, and the product's sign-up page. */
type WaveAsk = { next: number; ticket: string; starting: boolean; base: URL };
function readWaveAsk({ config, admin, fields }: WaveRequest): WaveAsk | Response {
  const mail = config.mail !== null;
  const most = mail ? CONSOLE_WAVE_MAX_MAIL : CONSOLE_WAVE_MAX;
  const next = /^\d{1,6}$/.test(fields["next"] ?? "") ? Number(fields["next"]) : 0;
  if (next < 1 || next > most) {
    const larger = mail ? "" : " (larger waves: with e-mail on, or npm run waitlist -- invite)";
    const said = `Choose how many to invite, from 1 to ${most.toLocaleString("en")}${larger}.`;
    return message(400, "Let people in", said, admin);
  }
  const ticket = fields["ticket"] ?? "";
  const starting = fields["confirm"] === "yes";
  if (starting && !isTicket(ticket)) {
    return message(400, "Let people in", "That wave does not exist: start from the console.", admin);
  }
  try {
    return { next, ticket, starting, base: earlyAccessBase(config.earlyAccessUrl) };
  } catch (error) {
    if (error instanceof InviteConfigError) return message(400, "Let people in", error.message, admin);
    throw error;
  }
}

/** POST /admin/invite: a preview; with a preview's ticket, its wave, started in the background (mail) or as a file. */
export async function invite(request: WaveRequest): Promise<Response> {
  const { store, config, admin, fields } = request;
  if (fields["everyone"] === "matching") return inviteMatching(request);
  // An old page's Continue (waves no longer need one): the wave's own page says how far it has got.
  const continuing = fields["wave"];
  if (continuing !== undefined) {
    if (!isId(continuing)) {
      return message(400, "Let people in", "That wave does not exist: start from the console.", admin);
    }
    return seeOther(jobPath("wave", Number(continuing)));
  }
  const ask = readWaveAsk(request);
  if (ask instanceof Response) return ask;
  const { next, ticket } = ask;
  const mail = config.mail !== null;
  if (!ask.starting) {
    const preview = await previewWave(store, next, config.referralPlaces);
    const named = await previewPeople(store.db, store.dataKeys, next, config.referralPlaces);
    return invitePreviewPage(admin, preview, named, next, mail, config.referralPlaces);
  }
  // Unique per request, so two requests of one process never pass for each other's wave.
  const owner = waveOwner(`console-${randomBytes(4).toString("hex")}`);
  // In the log before its first effect (the claim, then reservations or rows); completed once handed over or done.
  const entry = await auditStart(store.db, admin, "wave", { size: next });
  const claim = await store.of(waveRecords).claim(ticket, owner, next);
  if (!claim.claimed) {
    // A second confirmation of one preview (a double click, two tabs): that preview's wave, on its page.
    await entry.end({ size: next, wave: claim.wave, invited: 0, note: "this confirmation's wave was already started" });
    return seeOther(mail ? jobPath("wave", claim.wave) : `${CONSOLE_PATH}?wave=${claim.wave}`);
  }
  const started = { wave: claim.wave, owner, entry, logId: (await adminIdentity(config, store)).logId(admin) };
  return mail ? startMailWave(request, next, started) : fileWave(request, ask, started);
}

/** A claimed wave: its id, the run holding it, its audit entry, and the admin as the logs name them. */
interface Started {
  wave: number;
  owner: string;
  entry: AuditedAction;
  logId: string;
}

/** With mail: the people reserved, then handed to the background run; the wave's page says how it goes. */
async function startMailWave(request: WaveRequest, next: number, { wave, owner, entry, logId }: Started) {
  const { store, config } = request;
  const reserved = await reserveWave(store, wave, next, config.referralPlaces);
  await store.of(waveRecords).startedBy(wave, logId);
  // Held for nobody now: the background run takes it (or, nobody reserved, it ends here).
  await releaseJob(store.db, "wave", wave, owner, reserved === 0);
  log("info", "admin.invite", { admin: logId, wave, reserved });
  const taken = reserved > 0 && (await startJob({ ...request, logId }, "wave", wave));
  await entry.end({ size: next, wave, reserved, background: taken ? "started" : "left to the scheduler" });
  return seeOther(`${jobPath("wave", wave)}&done=started`);
}

/** With mail off: the wave runs now, and its invite links are the answer, as a CSV file. */
async function fileWave(request: WaveRequest, { next, base }: WaveAsk, { wave, owner, entry, logId }: Started) {
  const { store, config } = request;
  let csv = "email,name,invite_url\r\n";
  const fileIds: number[] = [];
  const options: WaveOptions = {
    store,
    next,
    delivery: {
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
    wave,
  };
  const report = await runWave(options);
  // What this request did goes on the wave's row: the one the dashboard, and a repeated confirmation, read.
  await store.of(waveRecords).record(wave, { ...report, stopped: report.stopped !== null }, fileIds);
  log("info", "admin.invite", { admin: logId, invited: report.invited, refused: report.refused });
  await entry.end({ size: next, wave, invited: report.invited, refused: report.refused });
  // The file is the answer. Its people are invited now, so if it never reaches the browser the dashboard offers it
  // again (wave-files.ts says why this, not waiting for the download, which no server sees).
  return attachment(csv, "text/csv", "invitations", "csv");
}
