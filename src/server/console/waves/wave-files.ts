/**
 * The dashboard's word on waves, from their rows (wave-record.ts): the notice after a wave, by its id, and the
 * file of a mail-off wave again, or the admin's word that it arrived (the dashboard lists those files).
 *
 * Why a mail-off wave's people are invited when its file is made, and the file offered again, rather than nobody
 * invited until the file is delivered: no server can see a file reach a browser. Netlify reads a function's whole
 * answer before it sends a byte of it, so the answer is "delivered" to the platform even when the admin's
 * connection dropped 5 ms after the POST, and a download saved, lost or cancelled looks the same from here. So the
 * wave is done at once (its people leave the confirmed list, as they would by e-mail), and the dashboard offers
 * its file until the admin says it arrived: "Download this wave's file again" issues new codes for that wave's
 * people still invited (whoever joined meanwhile is left out), and the lost file's codes stop working, so a file
 * that turns up later lets nobody in twice.
 */
import { counted } from "../../../lib/plural";
import { auditStart } from "../../audit";
import type { ServerConfig } from "../../config";
import { isId } from "../../http/limits";
import { attachment, seeOther } from "../../http/responses";
import { earlyAccessBase, inviteCsvRow, inviteLink } from "../../invitations";
import { waveRecords } from "../../invitations/wave-record";
import { log } from "../../log";
import type { Store } from "../../store/types";
import { CONSOLE_PATH, message } from "../pages";

/** The notice after a wave: that wave's counts as its row holds them; nothing for an id no wave has. */
export async function waveNotice(store: Store, params: URLSearchParams): Promise<string | null> {
  const id = params.get("wave") ?? "";
  if (!isId(id)) return null;
  const record = await store.of(waveRecords).read(Number(id));
  if (!record) return null;
  const { invited, refused } = record;
  const people = counted(invited, "person", "people");
  const parts = [
    record.finished ? `Invited ${people}.` : `This wave is under way or paused: invited ${people} so far.`,
  ];
  if (refused > 0) parts.push(`${counted(refused, "e-mail was", "e-mails were")} refused: they stay confirmed.`);
  if (record.stopped)
    parts.push("The SMTP server could not be used, so the wave stopped early: invite again to go on.");
  return parts.join(" ");
}

/** POST /admin/invite with file=<wave>: its file again (new codes), or the admin's word that it arrived. */
export async function waveFile(store: Store, config: ServerConfig, admin: string, fields: Record<string, string>) {
  const id = fields["file"] ?? "";
  if (!isId(id)) return message(400, "Invitation files", "That wave does not exist: start from the console.", admin);
  const records = store.of(waveRecords);
  if (fields["action"] === "arrived") {
    const entry = await auditStart(store.db, admin, "wave-file-arrived", { wave: Number(id) });
    await records.arrived(Number(id));
    await entry.end({ wave: Number(id) });
    return seeOther(CONSOLE_PATH);
  }
  const base = earlyAccessBase(config.earlyAccessUrl);
  // Hands out addresses and new codes, and voids the old ones: audited before the first of them changes.
  const entry = await auditStart(store.db, admin, "wave-file-again", { wave: Number(id) });
  const people = await records.reissue(Number(id), config.inviteTtlDays);
  await entry.end({ wave: Number(id), rows: people.length });
  log("info", "admin.invite_file_again", { wave: Number(id), rows: people.length });
  const rows = people.map((p) => inviteCsvRow(p.email, p.name, inviteLink(base, p.code)));
  return attachment(`email,name,invite_url\r\n${rows.join("")}`, "text/csv", `invitations-wave-${id}`, "csv");
}
