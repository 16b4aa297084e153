/** The People page's words around its list (people.tsx): the notice after a bulk action, and the line under the heading. */
import type { ReactNode } from "react";
import { counted } from "../../../lib/plural";
import { Notice } from "../ui/parts";
import { MIN_PART, type PartSearch } from "./list";
import type { WaveSummary } from "./people-data";
import type { PeopleSort } from "./people-filter";
import { SORT_LABELS } from "./people-parts";

/** What the page says after a bulk action: from the wave's row, or the removal's audit entry. */
export function noticeOf(params: URLSearchParams, wave: WaveSummary | null, removed: number | null): ReactNode {
  if (removed !== null) {
    return (
      <Notice>
        Removed {counted(removed, "person", "people")}: their addresses, everything they sent and their links are
        deleted.
      </Notice>
    );
  }
  if (params.get("done") !== "invited" || !wave) return null;
  const unsent = Math.max(0, wave.size - wave.invited - wave.refused);
  const parts = [
    `Invited ${wave.invited} of the ${counted(wave.size, "person", "people")} you chose: their e-mails were accepted.`,
    wave.refused > 0 ? `${counted(wave.refused, "was", "were")} refused by their mail server and stay confirmed.` : "",
    unsent > 0 ? `${unsent} not sent: the mail server could not be reached, or they left the list.` : "",
  ];
  return <Notice tone={wave.invited === wave.size ? "done" : "warn"}>{parts.filter(Boolean).join(" ")}</Notice>;
}

/** The line under the heading: the order, the page, and how a search finds its matches. */
export function listNote(
  sort: PeopleSort,
  at: number | null,
  pages: number | null,
  search: string,
  how: PartSearch | null,
) {
  const where = at === null ? "" : pages === null ? ` · page ${at}` : ` · page ${at} of ${pages}`;
  const hint =
    search === ""
      ? ""
      : search.length < MIN_PART
        ? ` · Type at least ${MIN_PART} characters to find part of an address; shorter finds whole addresses only.`
        : how === "start"
          ? " · This database has no pg_trgm, so a part finds addresses that start with it."
          : "";
  return `${SORT_LABELS[sort]}${where}${hint}`;
}
