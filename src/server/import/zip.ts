/**
 * A ZIP of CSVs (Mailchimp's audience export: subscribed, unsubscribed and cleaned members), opened in memory with
 * fflate: only its CSV files are read, by their base name (a name is a label here, never a path: nothing from the
 * archive is written anywhere, so `../` in a name can reach nothing), each at most MAX_CSV_BYTES once inflated.
 */
import { unzipSync } from "fflate";
import { UnreadableFile } from "./read";

/** The largest CSV taken from an archive, inflated: a "ZIP bomb" stops here rather than filling memory. */
export const MAX_CSV_BYTES = 512 * 1024 * 1024;

/** Whether the bytes start as a ZIP does (a local file header). */
export const isZip = (head: Uint8Array) => head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

/** Mailchimp's three files in its order (subscribed, unsubscribed, cleaned), others after them by name. */
const rank = (name: string) => ["subscribed", "unsubscribed", "cleaned"].findIndex((kind) => name.startsWith(kind));

export interface ZipMember {
  name: string;
  bytes: Uint8Array;
}

/** The archive's CSV files (macOS's __MACOSX copies left out), in Mailchimp's order. */
export function csvMembers(zip: Uint8Array): ZipMember[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (file) =>
        /\.csv$/i.test(file.name) && !file.name.startsWith("__MACOSX/") && file.originalSize <= MAX_CSV_BYTES,
    });
  } catch (error) {
    throw new UnreadableFile(`the ZIP cannot be opened (${(error as Error).message}).`);
  }
  const members = Object.entries(files).map(([path, bytes]) => ({ name: path.split(/[\\/]/).pop() ?? path, bytes }));
  if (members.length === 0) throw new UnreadableFile("the ZIP holds no CSV file.");
  const order = (name: string) => {
    const r = rank(name.toLowerCase());
    return r < 0 ? 9 : r;
  };
  return members.sort((a, b) => order(a.name) - order(b.name) || a.name.localeCompare(b.name));
}
