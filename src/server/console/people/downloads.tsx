/**
 * The console's download of the list: "Download the list" (a POST, like every console action) answers a page of
 * numbered parts, each a whole CSV or JSON file with its header, cut when the page is made (export/parts.ts: at most
 * 16 MB and 40,000 rows a part, so each is one response Netlify can serve; sign-ups arriving meanwhile are in no
 * part, and no row is in two). Each part is a GET link, so a click saves the file:
 * - it changes nothing, so it needs no Origin check (a GET's Origin is not sent anyway);
 * - it is answered only with the session cookie, which is SameSite=Strict and Path=/admin: a link on another site
 *   arrives without it and gets the sign-in's 401, and no other origin can read the file (no CORS);
 * - its range is signed with a key derived from the server's secret, so the console reads only the ranges its
 *   page made: a link edited by hand is a 400, never a read of the whole table.
 * The page is in the People area: it is the list of people, taken away.
 */
import { createHmac } from "node:crypto";
import { counted } from "../../../lib/plural";
import { audit } from "../../audit";
import type { ServerConfig } from "../../config";
import { derivedKey, rootKey } from "../../crypto/secret";
import { sameSecret } from "../../crypto/tokens";
import {
  download,
  EXPORT_FORMATS,
  EXPORT_TYPES,
  type ExportFormat,
  openExport,
  PART_SIZE,
  type PartRange,
  type PartSize,
  partFilename,
  planParts,
  suppressedLeftOut,
} from "../../export";
import { log } from "../../log";
import type { Store } from "../../store/types";
import { CONSOLE_PATHS, message, page } from "../pages";
import { Section } from "../ui/parts";
import { utcMinute } from "../ui/time";

/** What the console's downloads take beyond the handler's own: the size of a part (tests cut small ones). */
export interface DownloadDeps {
  partSize?: PartSize;
}

/** A part as its link names it. */
interface PartLink {
  format: ExportFormat;
  from: number;
  to: number;
  part: number;
  of: number;
}

const FORMAT_NAMES: Record<ExportFormat, string> = {
  csv: "CSV (spreadsheets)",
  "mail-csv": "CSV (mail tools)",
  json: "JSON",
};

/** The link's signature: an HMAC of every parameter, under a key only for these links. */
async function signature(config: ServerConfig, store: Store, link: PartLink): Promise<string> {
  const key = derivedKey(await rootKey(config, store), "console export part");
  const text = [link.format, link.from, link.to, link.part, link.of].join(":");
  return createHmac("sha256", key).update(text).digest("base64url").slice(0, 22);
}

const ID = /^(0|[1-9]\d{0,14})$/;

/** The part a link names, if it is well formed (its signature is checked apart). */
function readLink(params: URLSearchParams): PartLink | null {
  const format = params.get("format") as ExportFormat;
  const [from, to, part, of] = ["from", "to", "part", "of"].map((name) => params.get(name) ?? "");
  if (!EXPORT_FORMATS.includes(format) || ![from, to, part, of].every((n) => ID.test(n ?? ""))) return null;
  const link = { format, from: Number(from), to: Number(to), part: Number(part), of: Number(of) };
  return link.from < link.to && link.part >= 1 && link.part <= link.of ? link : null;
}

/** POST /admin/export: the page of parts, cut now. */
export async function exportPage(
  asking: { store: Store; config: ServerConfig; admin: string; logId: string; size?: PartSize | undefined },
  asked: string,
) {
  const { store, config, admin, logId, size = PART_SIZE } = asking;
  const format = EXPORT_FORMATS.includes(asked as ExportFormat) ? (asked as ExportFormat) : "csv";
  const { parts } = await planParts(store, format, config.dbTimeoutMs, size);
  log("info", "admin.export", { admin: logId, format, parts: parts.length });
  await audit(store.db, admin, "export", {
    via: "console",
    format,
    parts: parts.length,
    rows: parts.reduce((n, p) => n + p.rows, 0),
  });
  if (parts.length === 0)
    return message(200, "Download the list", "There are no sign-ups yet: nothing to download.", admin);
  const { extension } = EXPORT_TYPES[format];
  const total = parts.reduce((sum, part) => sum + part.rows, 0);
  const links = await Promise.all(
    parts.map(async (range: PartRange, index) => {
      const link: PartLink = { format, from: range.from, to: range.to, part: index + 1, of: parts.length };
      const query = new URLSearchParams({
        ...Object.fromEntries(Object.entries(link).map(([name, value]) => [name, String(value)])),
        sig: await signature(config, store, link),
      });
      return { href: `${CONSOLE_PATHS.exportPart}?${query}`, name: partFilename(extension, link.part, link.of), range };
    }),
  );
  const when = utcMinute(new Date().toISOString());
  const most = `${size.bytes / 1_000_000} MB`;
  return page(
    200,
    "Download the list",
    <>
      <h1>Download the list</h1>
      <Section id="parts" title={`${counted(parts.length, "file")} to download`}>
        <p>
          {`${FORMAT_NAMES[format]}: the list as it was at ${when} UTC, ${counted(total, "sign-up")} in ${counted(parts.length, "part")}.`}
        </p>
        <p className="note">
          {`Download each part in turn: each is a whole file with its own header, of at most ${most} (less on the wire: it comes compressed). Sign-ups that arrive from now on are in none of them, and none is in two; a sign-up removed since is left out.`}
        </p>
        <ol className="parts">
          {links.map(({ href, name, range }) => (
            <li key={name}>
              <a href={href}>{name}</a> <span className="note">{counted(range.rows, "sign-up")}</span>
            </li>
          ))}
        </ol>
      </Section>
      <p>
        <a href={CONSOLE_PATHS.people}>Back to the people</a>
      </p>
    </>,
    admin,
    {},
    { area: "people" },
  );
}

/** GET /admin/export/part: one part, as its signed link names it. */
export async function exportPart(req: Request, store: Store, config: ServerConfig, admin: string, logId: string) {
  const params = new URL(req.url).searchParams;
  const link = readLink(params);
  if (!link || !sameSecret(params.get("sig") ?? "", await signature(config, store, link))) {
    return message(
      400,
      "This link doesn't work",
      "This is not a download link the console made. Download the list again from the console for new links.",
      admin,
    );
  }
  const { type, extension } = EXPORT_TYPES[link.format];
  const options = { timeoutMs: config.dbTimeoutMs, after: link.from, through: link.to };
  const body = await openExport(store, link.format, options, ({ rows, error }) =>
    log(error ? "error" : "info", "admin.export_part", { admin: logId, format: link.format, part: link.part, rows }),
  );
  // A part for a mailing tool says how many suppressed people it left out (the file cannot).
  const leftOut =
    link.format === "mail-csv"
      ? { "Waitlist-Suppressed-Left-Out": String(await suppressedLeftOut(store.db, options)) }
      : undefined;
  return download(req, body, { type, extension, filename: partFilename(extension, link.part, link.of) }, leftOut);
}
