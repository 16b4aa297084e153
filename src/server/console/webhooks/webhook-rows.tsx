/**
 * The delivery log's lines (webhook-log.tsx places them): one line a delivery, the event in words (a disclosure
 * whose details are its type, its webhook-id, its exact times, the receiver's whole last answer and its payload),
 * how long ago it happened, its state as a badge, its tries, the receiver's last answer cut to the line (its status
 * once: "500: Internal Server Error"), its next try ("in 4 min") and "Retry now" for any event not delivered. Times
 * are relative to the server's clock (`now`), exact in the details. A row whose last try went unacknowledged is
 * marked (tr.failing); on a phone each delivery is two lines (styles-webhooks.ts).
 */
import type { ReactNode } from "react";
import { DataKeyError } from "../../data-key";
import type { Store } from "../../store/types";
import { type EventRow, eventBody } from "../../webhooks";
import { StateBadge, type Tone } from "../jobs/job-parts";
import { CONSOLE_PATHS } from "../paths";
import { Figures } from "../ui/parts";
import { CardTable } from "../ui/table";
import { relativeTime, utcSecond } from "../ui/time";

/** What each event type says happened, for the team (the receiver reads the type). */
const EVENT_WORDS: Record<string, string> = {
  "waitlist.signed_up": "Someone signed up",
  "waitlist.confirmed": "Someone confirmed their address",
  "waitlist.invited": "Someone was invited",
  "waitlist.joined": "Someone joined",
  "waitlist.unsubscribed": "Someone stopped updates",
  "waitlist.referred": "A referral counted",
  "waitlist.referral_revoked": "A referral was revoked",
  "waitlist.removed": "Someone was removed",
  "waitlist.suppressed": "Mail to someone stopped",
  "webhook.test": "Test event",
};

/** Whether an event's last try went unacknowledged (its row is marked). */
const failing = (e: EventRow) =>
  e.state === "failed" || (e.state === "pending" && (e.lastStatus !== null || e.lastError !== null));

/** An event's state as a badge: delivered, waiting, failing (its last try missed, more to come), failed (no more). */
function EventState({ event }: { event: EventRow }) {
  const [label, tone]: [string, Tone] =
    event.state === "delivered"
      ? ["Delivered", "good"]
      : event.state === "failed"
        ? ["Failed", "bad"]
        : failing(event)
          ? ["Failing", "bad"]
          : ["Waiting", "muted"];
  return <StateBadge tone={tone}>{label}</StateBadge>;
}

/** An event's body as it is (or was) sent, for the log; what cannot be shown says why. */
function payload(event: EventRow, store: Store): string {
  if (event.state === "delivered" && event.type !== "webhook.test") {
    return "Delivered: the person's details are no longer kept here.";
  }
  try {
    const { id, type, waitlistId, occurredAt, person, attempts } = event;
    const body = eventBody({ id, type, waitlistId, occurredAt, person, attempts }, store.dataKeys);
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch (error) {
    if (error instanceof DataKeyError) return `Sealed: ${error.message}`;
    throw error;
  }
}

/**
 * The receiver's last answer on one line, its status said once: the status (or what the delivery recorded in its
 * place, "410 Gone: deliveries paused"), then the answer's text with its line breaks and control characters as
 * spaces; or why there was no answer ("could not connect").
 */
export function answerLine(e: Pick<EventRow, "lastStatus" | "lastError" | "lastAnswer">): string {
  const text = (e.lastAnswer ?? "").replace(/[\p{Cc}\s]+/gu, " ").trim();
  if (e.lastStatus === null) return e.lastError ?? "—";
  const status = e.lastError?.startsWith(String(e.lastStatus)) ? e.lastError : String(e.lastStatus);
  return text ? `${status}: ${text}` : status;
}

/** A moment as the row says it (relative), exact in its datetime. */
const At = ({ iso, now }: { iso: string; now: Date }) => <time dateTime={iso}>{relativeTime(iso, now)}</time>;

/** What the row's disclosure holds: everything the line leaves out, times exact. */
function Details({ event: e, store }: { event: EventRow; store: Store }) {
  const items: Array<[string, ReactNode]> = [
    ["Type", <code key="type">{e.type}</code>],
    ["webhook-id", <code key="id">{e.id}</code>],
    ["Happened (UTC)", utcSecond(e.occurredAt)],
  ];
  if (e.state === "pending" && e.nextAttemptAt) items.push(["Next try (UTC)", utcSecond(e.nextAttemptAt)]);
  if (e.lastAnswer || e.lastStatus !== null || e.lastError) {
    const whole = (e.lastAnswer ?? "").replace(/\p{Cc}/gu, (c) => (c === "\n" || c === "\t" ? c : " "));
    items.push(["Last answer", whole ? <pre key="answer">{whole}</pre> : answerLine(e)]);
  }
  items.push(["Payload", <pre key="payload">{payload(e, store)}</pre>]);
  return <Figures className="pairs" items={items} />;
}

function Row({ event: e, store, now }: { event: EventRow; store: Store; now: Date }) {
  const words = EVENT_WORDS[e.type] ?? e.type;
  const next = e.state === "pending" && e.nextAttemptAt ? e.nextAttemptAt : null;
  return (
    <tr className={failing(e) ? "failing" : undefined}>
      <td className="what">
        <details>
          <summary>{words}</summary>
          <Details event={e} store={store} />
        </details>
      </td>
      <td className="when">
        <At iso={e.occurredAt} now={now} />
      </td>
      <td className="state">
        <EventState event={e} />
      </td>
      <td className="n">
        {e.attempts}
        <span className="on-phone">{e.attempts === 1 ? " try" : " tries"}</span>
      </td>
      <td className="answer">{answerLine(e)}</td>
      <td className={next ? "next" : "next none"}>
        {next ? (
          <>
            <span className="on-phone">next </span>
            <At iso={next} now={now} />
          </>
        ) : (
          "—"
        )}
      </td>
      <td className="act">
        {e.state === "delivered" ? null : (
          <form method="post" action={CONSOLE_PATHS.webhooks} className="inline">
            <input type="hidden" name="action" value="retry" />
            <input type="hidden" name="id" value={e.id} />
            <button type="submit" className="quiet" aria-label={`Retry now: ${words}, ${utcSecond(e.occurredAt)} UTC`}>
              Retry now
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

export function EventRows({ events, store, now }: { events: EventRow[]; store: Store; now: Date }) {
  return (
    <CardTable className="log-lines">
      <caption className="sr-only">Deliveries, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">When</th>
          <th scope="col">Status</th>
          <th scope="col" className="n">
            Tries
          </th>
          <th scope="col">Last answer</th>
          <th scope="col">Next try</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <Row key={e.id} event={e} store={store} now={now} />
        ))}
      </tbody>
    </CardTable>
  );
}
