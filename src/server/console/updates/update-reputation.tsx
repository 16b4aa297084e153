/**
 * What came back for each update, on the Updates page: hard bounces, soft bounces and complaints, counted from the
 * SMTP answers and the providers' events correlated to it, with their rates of the messages accepted; and, for an
 * unfinished update past a threshold, the banner that says why it paused by itself (the same words the pause was
 * made with: suppression/pause.ts) and that Resume, on its page, goes on with it. Its own file, so the page only
 * places it.
 */
import type { ReactNode } from "react";
import type { ServerConfig } from "../../config";
import type { Store } from "../../store/types";
import { createSuppressionStore, mustPause, rateText } from "../../suppression";
import type { PastUpdate } from "../../updates";
import { Notice, Section } from "../ui/parts";
import { CardTable, Head } from "../ui/table";

export async function reputationSection(
  store: Store,
  config: Pick<ServerConfig, "reputation">,
  past: PastUpdate[],
): Promise<ReactNode> {
  if (past.length === 0) return null;
  const list = store.of(createSuppressionStore);
  const counted = await Promise.all(past.map(async (u) => ({ u, r: await list.reputation(u.id) })));
  const banners = counted
    .filter(({ u }) => !u.finished)
    .map(({ u, r }) => ({ u, why: mustPause(r, config) }))
    .filter((b): b is { u: PastUpdate; why: string } => b.why !== null);
  const { pauseComplaintRate, pauseBounceRate } = config.reputation;
  return (
    <Section id="came-back" title="What came back">
      {banners.map(({ u, why }) => (
        <Notice tone="error" key={u.id}>
          {`“${u.subject}”: ${why} Look at who complained or bounced before you resume it on its page.`}
        </Notice>
      ))}
      <p className="note">
        {`Rates are of the e-mails accepted. An update pauses by itself past ${pauseComplaintRate} % complaints or ${pauseBounceRate} % hard bounces (PAUSE_COMPLAINT_RATE, PAUSE_BOUNCE_RATE).`}
      </p>
      <CardTable>
        <Head
          columns={[
            "Subject",
            { label: "Hard bounces", numeric: true },
            { label: "Complaints", numeric: true },
            { label: "Soft bounces", numeric: true },
          ]}
        />
        <tbody>
          {counted.map(({ u, r }) => (
            <tr key={u.id}>
              <td data-label="Subject">{u.subject}</td>
              <td data-label="Hard bounces" className="n">{`${r.hardBounces} (${rateText(r.hardBounces, r.sent)})`}</td>
              <td data-label="Complaints" className="n">{`${r.complaints} (${rateText(r.complaints, r.sent)})`}</td>
              <td data-label="Soft bounces" className="n">
                {r.softBounces}
              </td>
            </tr>
          ))}
        </tbody>
      </CardTable>
    </Section>
  );
}
