/**
 * What an update's own page (job-page.tsx) shows beyond its progress: what came back for it (hard bounces, soft
 * bounces and complaints, with their rates of the e-mails accepted: the counts the Updates page's "What came back"
 * lists) and the e-mail as it went out (mail-frames.tsx), so sent work can be read again.
 */
import type { ServerConfig } from "../../config";
import type { Store } from "../../store/types";
import { createSuppressionStore, rateText } from "../../suppression";
import { createUpdateStore } from "../../updates";
import { Figures, Section } from "../ui/parts";
import { MailFrames } from "./mail-frames";
import { mailHref } from "./update-mail";

export async function updateSentParts(
  visit: { store: Store; config: Pick<ServerConfig, "dbTimeoutMs">; origin: string },
  id: number,
) {
  const [row, came] = await Promise.all([
    visit.store.of(createUpdateStore).get(id, 0),
    visit.store.of(createSuppressionStore).reputation(id),
  ]);
  if (!row) return null;
  return (
    <>
      <Section id="came-back" title="What came back">
        <Figures
          items={[
            ["Hard bounces", `${came.hardBounces} (${rateText(came.hardBounces, came.sent)})`],
            ["Soft bounces", String(came.softBounces)],
            ["Complaints", `${came.complaints} (${rateText(came.complaints, came.sent)})`],
          ]}
        />
        <p className="note">Rates are of the e-mails accepted.</p>
      </Section>
      <Section id="the-email" title="The e-mail">
        <MailFrames
          src={mailHref({ update: id })}
          draft={{ subject: row.subject, body: row.body }}
          origin={visit.origin}
        />
      </Section>
    </>
  );
}
