/**
 * People → Import a list, the console's face of src/server/import/: an upload (at most 6 MB; larger: the CLI),
 * the dry run as a page (nothing changes), then a background job with its progress page. The file waits in the
 * database between the two steps (import/upload.ts: functions share no disk), deleted once its lines are read.
 */
import { auditStart } from "../../audit";
import type { ServerConfig } from "../../config";
import { csvRow } from "../../csv";
import type { UploadedFile } from "../../http/request-body";
import { seeOther } from "../../http/responses";
import {
  type ConsentMode,
  IMPORT_SQL,
  ImportRefused,
  type ImportReport,
  importFile,
  keepUpload,
  UnreadableFile,
  UPLOAD_LIMIT,
  uploadedFile,
} from "../../import";
import { NO_OWNER } from "../../jobs";
import type { Store } from "../../store/types";
import { jobPath } from "../jobs/job-parts";
import { type JobVisit, startJob } from "../jobs/jobs";
import { CONSOLE_PATHS, consoleHref, message, page } from "../pages";
import { ConfirmForm, Figures, Section } from "../ui/parts";

export const TOO_LARGE =
  "That file is over 6 MB, more than one request to the site can carry. Import it with the command line instead: npm run waitlist -- import FILE (docs/operating.md, “Moving from another tool”).";

const HASH = /^[0-9a-f]{64}$/;
const number = (n: number) => n.toLocaleString("en");

/** The form's options, checked: consent (ask unless confirmed) and the source (default "import"). */
function optionsOf(fields: Record<string, string>): { consent: ConsentMode; source: string | null } | string {
  const consent = fields["consent"] ?? "ask";
  if (consent !== "ask" && consent !== "confirmed") return "Choose how consent is taken: ask, or confirmed.";
  const source = (fields["source"] ?? "").trim();
  if (source.length > 100) return "The source is at most 100 characters.";
  return { consent, source: source === "" || source === "import" ? null : source };
}

/** GET /admin/import: the upload form. */
export function importFormPage(admin: string, status = 200, problem = ""): Response {
  return page(
    status,
    "Import a list",
    <>
      <h1>Import a list</h1>
      {problem ? <p role="alert">{problem}</p> : null}
      <Section id="import-file" title="The file from your old tool">
        <p>
          A CSV or Mailchimp's ZIP export, up to 6 MB. Nothing changes until you have seen what it would do and
          confirmed. Larger files: <code>npm run waitlist -- import FILE</code>.
        </p>
        <form method="post" action={CONSOLE_PATHS.import} encType="multipart/form-data">
          <p>
            <label htmlFor="import-upload">File</label> <input id="import-upload" type="file" name="file" required />
          </p>
          <fieldset>
            <legend>Consent</legend>
            <p>
              <input id="consent-ask" type="radio" name="consent" value="ask" defaultChecked />{" "}
              <label htmlFor="consent-ask">Ask: everyone is added as pending and sent one confirmation e-mail</label>
            </p>
            <p>
              <input id="consent-confirmed" type="radio" name="consent" value="confirmed" />{" "}
              <label htmlFor="consent-confirmed">
                Confirmed: only rows whose file shows when they confirmed (others are refused)
              </label>
            </p>
          </fieldset>
          <p>
            <label htmlFor="import-source">Source</label>{" "}
            <input id="import-source" name="source" maxLength={100} placeholder="import" />
          </p>
          <button type="submit">Check the file</button>
        </form>
      </Section>
    </>,
    admin,
    {},
    { area: "people" },
  );
}

export interface ImportVisit extends Omit<JobVisit, "fields"> {
  fields: Record<string, string>;
  upload: UploadedFile | null;
}

/** POST /admin/import: the upload kept, and the core's dry run shown; nothing on the list changes. */
export async function importCheck(visit: ImportVisit): Promise<Response> {
  const { store, admin, upload } = visit;
  if (!upload) return importFormPage(admin, 400, "Choose a file to import.");
  if (upload.bytes.byteLength > UPLOAD_LIMIT) return importFormPage(admin, 413, TOO_LARGE);
  const options = optionsOf(visit.fields);
  if (typeof options === "string") return importFormPage(admin, 400, options);
  const name = upload.name.replace(/^.*[\\/]/, "").slice(0, 200) || "upload.csv";
  let report: ImportReport;
  try {
    report = await importFile({ store, file: fileOf(name, upload.bytes), ...options, apply: false, actor: admin });
  } catch (error) {
    if (error instanceof UnreadableFile || error instanceof ImportRefused)
      return importFormPage(admin, 400, error.message);
    throw error;
  }
  const hash = await keepUpload(store.db, name, upload.bytes, visit.logId);
  return dryRunPage(admin, name, hash, options, report);
}

const fileOf = (name: string, bytes: Uint8Array) => ({
  name,
  open: async function* () {
    yield bytes;
  },
});

function dryRunPage(
  admin: string,
  name: string,
  hash: string,
  options: { consent: ConsentMode; source: string | null },
  report: ImportReport,
): Response {
  const fields = { file: hash, consent: options.consent, source: options.source ?? "" };
  return page(
    200,
    "Import a list: what it would do",
    <>
      <h1>What importing {name} would do</h1>
      <p>Nothing has changed yet.</p>
      <Section id="import-format" title="What was read">
        <ul>
          {report.formats.map((f) => (
            <li key={f.file}>
              {f.file}: {f.format} (columns read: {f.reads.join(", ") || "none"})
            </li>
          ))}
        </ul>
      </Section>
      <Section id="import-counts" title="Counts">
        <Figures
          className="totals"
          items={[
            ["New", number(report.added)],
            ["Already on the list", number(report.existing)],
            ["To be suppressed", number(report.suppressed)],
            ["Refused", number(report.refused)],
          ]}
        />
      </Section>
      {report.refused > 0 ? <RefusedLines report={report} fields={fields} /> : null}
      <Section id="import-confirm" title="Import">
        <p>
          {options.consent === "ask"
            ? "Each new person is added as pending and sent one confirmation e-mail, at the mail rate."
            : "Each new person is added as confirmed, with the file's consent evidence as their record."}
        </p>
        <ConfirmForm action={CONSOLE_PATHS.importStart} fields={fields} label="Import" back={CONSOLE_PATHS.import} />
      </Section>
    </>,
    admin,
    {},
    { area: "people" },
  );
}

/** The first refused lines with their reasons, and every refused line as a CSV download. */
function RefusedLines({ report, fields }: { report: ImportReport; fields: Record<string, string> }) {
  return (
    <Section id="import-refused" title="First refused lines">
      <ul>
        {report.firstReasons.map((r) => (
          <li key={`${r.file}:${r.line}`}>
            {r.file}, line {r.line}: {r.reason}
          </li>
        ))}
      </ul>
      <p>
        <a href={consoleHref(CONSOLE_PATHS.importRefused, fields)}>Download every refused line (CSV)</a>
      </p>
    </Section>
  );
}

/** POST /admin/import/start: the confirmed import queued as a job and started; to its page. */
export async function importStart(visit: ImportVisit): Promise<Response> {
  const { store, admin, fields } = visit;
  const hash = fields["file"] ?? "";
  const options = optionsOf(fields);
  if (!HASH.test(hash) || typeof options === "string")
    return message(400, "Import a list", "Use the page's buttons.", admin);
  const file = await uploadedFile(store.db, hash);
  if (!file) return message(404, "Import a list", "That upload is no longer here: upload the file again.", admin);
  const [found] = await store.db.query<{ consent: string; source: string }>(IMPORT_SQL.find, [hash]);
  const source = options.source ?? "import";
  if (found && (found.consent !== options.consent || found.source !== source))
    return message(
      400,
      "Import a list",
      `This file was imported before with other options (consent ${found.consent}, source ${found.source}). Nothing was changed.`,
      admin,
    );
  const [row] = await store.db.query<{ id: number }>(IMPORT_SQL.queue, [
    hash,
    file.name,
    options.consent,
    source,
    visit.logId,
    NO_OWNER,
  ]);
  const id = Number(row?.id);
  // Started here, before its first effect; the background run that reads the file writes its end (import/run.ts).
  await auditStart(store.db, admin, "import", { file: file.name, consent: options.consent, import: id });
  await startJob(visit, "import", id);
  return seeOther(`${jobPath("import", id)}&done=started`);
}

/** GET /admin/import/refused?file=…: every refused line of an upload, as a CSV (formula cells neutralised). */
export async function importRefusedCsv(
  visit: { store: Store; config: ServerConfig; admin: string },
  params: URLSearchParams,
): Promise<Response> {
  const hash = params.get("file") ?? "";
  const fields = Object.fromEntries(params);
  const options = optionsOf(fields);
  if (!HASH.test(hash) || typeof options === "string")
    return message(400, "Import a list", "Use the page's links.", visit.admin);
  const file = await uploadedFile(visit.store.db, hash);
  if (!file) return message(404, "Import a list", "That upload is no longer here: upload the file again.", visit.admin);
  const rows = [csvRow(["file", "line", "reason", "row as read"])];
  await importFile({
    store: visit.store,
    file,
    ...options,
    apply: false,
    actor: visit.admin,
    onRefused: (refusal, cells) => rows.push(csvRow([refusal.file, refusal.line, refusal.reason, ...cells])),
  });
  return new Response(rows.join(""), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="refused.csv"',
      "Cache-Control": "no-store",
    },
  });
}
