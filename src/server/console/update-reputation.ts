/**
 * What came back for each update, on the Updates page: hard bounces, soft bounces and complaints, counted from the
 * SMTP answers and the providers' events correlated to it, with their rates of the messages accepted; and, for an
 * unfinished update past a threshold, the banner that says why it paused by itself (the same words the pause was
 * made with: suppression/pause.ts) and that Resume, on its page, goes on with it. Its own file, so the page only places it.
 */
import type { ServerConfig } from "../config";
import { escapeHtml as h } from "../http/form-page";
import type { Store } from "../store/types";
import { createSuppressionStore, mustPause, rateText } from "../suppression";
import type { PastUpdate } from "../updates";

export async function reputationSection(
  store: Store,
  config: Pick<ServerConfig, "reputation">,
  past: PastUpdate[],
): Promise<string> {
  if (past.length === 0) return "";
  const list = createSuppressionStore(store.db);
  const counted = await Promise.all(past.map(async (u) => ({ u, r: await list.reputation(u.id) })));
  const banners = counted
    .filter(({ u }) => !u.finished)
    .map(({ u, r }) => ({ u, why: mustPause(r, config) }))
    .filter(({ why }) => why !== null)
    .map(
      ({ u, why }) =>
        `<p class="error" role="alert">“${h(u.subject)}”: ${h(why ?? "")} Look at who complained or bounced before you resume it on its page.</p>`,
    )
    .join("");
  const rows = counted
    .map(
      ({ u, r }) =>
        `<tr><td data-label="Subject">${h(u.subject)}</td><td data-label="Hard bounces" class="n">${r.hardBounces} (${rateText(r.hardBounces, r.sent)})</td><td data-label="Complaints" class="n">${r.complaints} (${rateText(r.complaints, r.sent)})</td><td data-label="Soft bounces" class="n">${r.softBounces}</td></tr>`,
    )
    .join("");
  return `<section aria-labelledby="came-back"><h2 id="came-back">What came back</h2>${banners}
<p class="note">Rates are of the e-mails accepted. An update pauses by itself past ${config.reputation.pauseComplaintRate} % complaints or ${config.reputation.pauseBounceRate} % hard bounces (PAUSE_COMPLAINT_RATE, PAUSE_BOUNCE_RATE).</p>
<div class="scroll"><table class="cards"><thead><tr><th scope="col">Subject</th><th scope="col" class="n">Hard bounces</th><th scope="col" class="n">Complaints</th><th scope="col" class="n">Soft bounces</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}
