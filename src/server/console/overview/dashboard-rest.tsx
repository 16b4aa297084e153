/**
 * The overview's sections after the funnel, one idea each: what the reminders won back, referrals (counted, and
 * who brought the most lately), letting people in (a wave's first step, and the files of mail-off waves still
 * offered again), and downloading the list.
 */
import { counted } from "../../../lib/plural";
import type { ReferralSummary } from "../../store/types";
import { CONSOLE_PATHS, CONSOLE_WAVE_MAX, CONSOLE_WAVE_MAX_MAIL, consoleHref } from "../pages";
import { Field, Section } from "../ui/parts";
import { Head } from "../ui/table";

/** The window of "top referrers": long enough to see a ring form, short enough to be news. */
export const REFERRAL_WINDOW_DAYS = 30;

export interface Reminders {
  confirm: { reminded: number; confirmed: number };
  invite: { reminded: number; joined: number };
}

const share = (part: number, whole: number) => (whole > 0 ? ` (${Math.round((part / whole) * 100)}%)` : "");

/** One line under the totals once a reminder has gone: what the reminders won back; nothing before. */
export function ReminderLine({ reminders }: { reminders: Reminders }) {
  const { confirm, invite } = reminders;
  const people = (n: number) => counted(n, "person", "people");
  const parts = [
    confirm.reminded > 0
      ? `${people(confirm.confirmed)} confirmed after a reminder, of ${confirm.reminded.toLocaleString("en")} reminded${share(confirm.confirmed, confirm.reminded)}`
      : "",
    invite.reminded > 0
      ? `${people(invite.joined)} joined after a reminder of their invitation, of ${invite.reminded.toLocaleString("en")} reminded${share(invite.joined, invite.reminded)}`
      : "",
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <p className="note" id="reminders-outcome">
      Reminders: {parts.join("; ")}.
    </p>
  );
}

export function Referrals({ referrals }: { referrals: ReferralSummary }) {
  const { counted: all, recent, top } = referrals;
  return (
    <Section id="referrals" title="Referrals">
      <p>
        {counted(all, "referral")} counted in all · {recent.toLocaleString("en")} in the last {REFERRAL_WINDOW_DAYS}{" "}
        days
      </p>
      <p className="note">
        A referral counts when the person who came by a share link confirms a mailbox of their own; one referrer's many
        in a short time can be a ring.
      </p>
      {top.length > 0 ? (
        <div className="scroll">
          <table>
            <caption>Top referrers, last {REFERRAL_WINDOW_DAYS} days</caption>
            <Head columns={["Referrer", { label: "Counted", numeric: true }]} />
            <tbody>
              {top.map((r) => (
                <tr key={r.code}>
                  <td>
                    <a href={consoleHref(CONSOLE_PATHS.people, { q: r.email })}>{r.email}</a>
                  </td>
                  <td className="n">{r.counted.toLocaleString("en")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="note">No referral counted in the last {REFERRAL_WINDOW_DAYS} days.</p>
      )}
    </Section>
  );
}

export interface InviteState {
  ready: boolean;
  reason: string | null;
  mail: boolean;
}

/** Mail-off waves whose file the console still offers again, by how many people are in it. */
function WaveFiles({ files }: { files: ReadonlyArray<{ id: number; people: number }> }) {
  if (files.length === 0) return null;
  return (
    <>
      <h3>Invitation files</h3>
      <p className="note">
        If a wave's file did not reach you, download it again: it holds new codes, and the codes of the earlier file
        stop working. Once you have it, say so and this goes away.
      </p>
      <ul className="files">
        {files.map((file) => {
          const who = `A wave of ${counted(file.people, "person", "people")}, invited with e-mail off`;
          return (
            <li key={file.id}>
              <form method="post" action={CONSOLE_PATHS.invite} className="row">
                <input type="hidden" name="file" value={file.id} />
                <span>{who}</span>
                <button type="submit" name="action" value="again">
                  Download its file again
                </button>
                <button type="submit" name="action" value="arrived" className="quiet">
                  The file arrived
                </button>
              </form>
            </li>
          );
        })}
      </ul>
    </>
  );
}

export function LetPeopleIn({
  invite,
  confirmed,
  files,
}: {
  invite: InviteState;
  confirmed: number;
  files: ReadonlyArray<{ id: number; people: number }>;
}) {
  return (
    <Section id="invite" title="Let people in">
      {invite.ready ? (
        <>
          <p className="note">
            Invites the people who confirmed first: each gets a single-use code{" "}
            {invite.mail ? "by e-mail" : "in a CSV file you download (e-mail is off)"}. You'll see who first: nothing is
            sent until you confirm.
          </p>
          <form method="post" action={CONSOLE_PATHS.invite}>
            <div className="row">
              <Field
                label="How many"
                id="next"
                name="next"
                type="number"
                min={1}
                max={invite.mail ? CONSOLE_WAVE_MAX_MAIL : CONSOLE_WAVE_MAX}
                defaultValue={Math.min(100, Math.max(1, confirmed))}
                required
                inputMode="numeric"
              />
              <button type="submit">Preview</button>
            </div>
          </form>
        </>
      ) : (
        <p className="note">{invite.reason}</p>
      )}
      <WaveFiles files={files} />
    </Section>
  );
}

export function DownloadList() {
  return (
    <Section id="export" title="Download the list">
      <form method="post" action={CONSOLE_PATHS.export}>
        <div className="row">
          <div>
            <label htmlFor="format">Format</label>
            <select id="format" name="format" defaultValue="csv">
              <option value="csv">CSV (spreadsheets)</option>
              <option value="mail-csv">CSV (mail tools)</option>
              <option value="json">JSON</option>
            </select>
          </div>
          <button type="submit">Download the list</button>
        </div>
      </form>
      <p className="note">
        For spreadsheets, every column, with cells that could run as formulas made safe. For mail tools, address and
        name exactly as given (do not open that file in a spreadsheet). A long list comes in numbered parts, each a
        whole file.
      </p>
    </Section>
  );
}
