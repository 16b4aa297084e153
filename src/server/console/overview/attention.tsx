/**
 * What the first page shows before anything else, because it needs the team now: webhook deliveries paused or
 * failing (one rule, webhookHealth in src/server/webhooks/), and every send, wave and delivery still under way,
 * each with its state, its bar and a link to its page. The overview loads it with `loadAttention` and places
 * `<Attention {...data} />`; `needsAttention` says whether there is anything to show at all.
 */
import { counted } from "../../../lib/plural";
import type { ServerConfig } from "../../config";
import type { Store } from "../../store/types";
import { type WebhookHealth, webhookHealth } from "../../webhooks";
import { JobBadge, JobBar, jobPath } from "../jobs/job-parts";
import { type JobProgress, openJobs } from "../jobs/job-progress";
import { CONSOLE_PATHS } from "../paths";
import { Notice, Section } from "../ui/parts";

export interface AttentionProps {
  /** Webhook deliveries while they need the team (paused or failing); null while they are fine, or off. */
  webhooks: Exclude<WebhookHealth, { state: "ok" }> | null;
  /** Every send, wave and delivery not finished yet (paused ones too), newest first within each kind. */
  jobs: JobProgress[];
}

export async function loadAttention(store: Store, config: ServerConfig): Promise<AttentionProps> {
  const [health, jobs] = await Promise.all([config.webhook ? webhookHealth(store) : null, openJobs(store.db)]);
  return { webhooks: health && health.state !== "ok" ? health : null, jobs };
}

export const needsAttention = (props: AttentionProps) => props.webhooks !== null || props.jobs.length > 0;

/** The banner: what is wrong with deliveries, how many events wait, what the receiver last said. */
function WebhookBanner({ health }: { health: NonNullable<AttentionProps["webhooks"]> }) {
  const what = health.state === "paused" ? "Webhook deliveries are paused" : "Webhook deliveries are failing";
  const heard = health.lastAnswer ? ` Last answer: ${health.lastAnswer}.` : "";
  return (
    <Notice tone="error">
      {`${what}: ${health.why}. ${counted(health.waiting, "event")} waiting.${heard}`}{" "}
      <a href={CONSOLE_PATHS.webhooks}>Open the delivery log</a>
    </Notice>
  );
}

export function Attention({ webhooks, jobs }: AttentionProps) {
  return (
    <>
      {webhooks ? <WebhookBanner health={webhooks} /> : null}
      {jobs.length > 0 ? (
        <Section id="under-way" title="Under way">
          <ul className="jobs">
            {jobs.map((job) => (
              <li key={`${job.kind}-${job.id}`}>
                <JobBar job={job} idPrefix="open" />
                <p className="job-line">
                  <JobBadge job={job} />{" "}
                  {job.state === "paused" && job.pausedReason ? (
                    <span className="note">{job.pausedReason} </span>
                  ) : null}
                  <a href={jobPath(job.kind, job.id)} aria-label={`Follow it: ${job.title}`}>
                    Follow it
                  </a>
                </p>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </>
  );
}
