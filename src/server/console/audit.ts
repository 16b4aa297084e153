/**
 * The audit log in the console (GET /admin/audit): every action the team took, newest first, 50 a page, each once
 * (an action's start and end are one row: audit/store.ts, actions).
 */
import { createAuditLog } from "../audit";
import type { ServerConfig } from "../config";
import { escapeHtml as h } from "../http/form-page";
import { withTimeout } from "../http/timeout";
import type { Store } from "../store/types";
import { CONSOLE_PATHS, page } from "./pages";

const PER_PAGE = 50;

export async function auditPage(store: Store, config: ServerConfig, admin: string, url: URL): Promise<Response> {
  const before = url.searchParams.get("before") ?? "";
  const from = /^[1-9]\d{0,18}$/.test(before) ? Number(before) : null;
  const entries = await withTimeout(createAuditLog(store.db).actions(PER_PAGE + 1, from), config.dbTimeoutMs);
  const shown = entries.slice(0, PER_PAGE);
  const rows = shown
    .map(
      (e) =>
        `<tr><td data-label="When (UTC)">${h(e.at.slice(0, 19).replace("T", " "))}</td><td data-label="Who">${h(e.actor)}</td><td data-label="What">${h(e.action)}</td><td data-label="Details">${h(
          Object.entries(e.details)
            .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
            .join(", "),
        )}</td></tr>`,
    )
    .join("");
  const last = shown[shown.length - 1];
  const older =
    entries.length > PER_PAGE && last
      ? `<nav class="pages" aria-label="Pages"><a href="${CONSOLE_PATHS.audit}?before=${last.id}">Older</a></nav>`
      : "";
  return page(
    200,
    "Audit log",
    `<h1>Audit log</h1><section aria-labelledby="log"><h2 id="log">What the team did, newest first</h2>
<p class="note">Kept ${config.auditDays} days (AUDIT_DAYS). Never a signed-up person's address.</p>
${rows ? `<div class="scroll"><table class="cards"><thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Details</th></tr></thead><tbody>${rows}</tbody></table></div>` : `<p class="note">Nothing yet.</p>`}${older}</section>`,
    admin,
  );
}
