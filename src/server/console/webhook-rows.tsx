/**
 * The delivery log's table (webhook-log.tsx places it): each event named in words with its type beside (the type
 * is what the receiving tool reads), when it happened, its state as a badge, its tries, the receiver's last answer
 * (cut on one line, the whole behind a disclosure), its next try, its payload behind a disclosure, and "Retry now"
 * for any event not delivered. A row whose last try went unacknowledged is marked in red (tr.failing).
 */
import { DataKeyError } from "../data-key";
import type { Store } from "../store/types";
import { type EventRow, eventBody } from "../webhooks";
import { StateBadge, type Tone } from "./job-parts";
import { CONSOLE_PATHS } from "./paths";
import { CardTable } from "./ui/table";
import { utcSecond } from "./ui/time";

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

const when = (iso: string | null) => (iso ? utcSecond(iso) : "—");
/** Characters of a receiver's answer shown in its row; the whole (1 KB at most) opens below it. */
const ANSWER_SHOWN = 80;

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
 * The receiver's answer as the row shows it: on one line (its line breaks and control characters as spaces), cut
 * to ANSWER_SHOWN characters, the whole kept in a disclosure when cut (no script: <details>).
 */
function Answer({ answer }: { answer: string | null }) {
  const line = (answer ?? "").replace(/[\p{Cc}\s]+/gu, " ").trim();
  if (!answer || !line) return null;
  const chars = Array.from(line);
  if (chars.length <= ANSWER_SHOWN)
    return (
      <>
        <br />
        <span className="note">{line}</span>
      </>
    );
  return (
    <details>
      <summary className="note">{`${chars.slice(0, ANSWER_SHOWN).join("")}…`}</summary>
      <pre>{answer.replace(/\p{Cc}/gu, (c) => (c === "\n" || c === "\t" ? c : " "))}</pre>
    </details>
  );
}

function Row({ event: e, store }: { event: EventRow; store: Store }) {
  const words = EVENT_WORDS[e.type] ?? e.type;
  const answer = e.lastStatus !== null ? `${e.lastStatus}` : (e.lastError ?? "—");
  return (
    <tr className={failing(e) ? "failing" : undefined}>
      {/* Each cell's parts in one block: on a phone a cell is a row (its label, then this). */}
      <td data-label="Event">
        <div>
          {words}
          <code className="note">{e.type}</code>
          {/* The id (the receiver's webhook-id) and the body behind a disclosure: a 36-character id would not fit a
              phone's column without breaking mid-word. */}
          <details>
            <summary>Payload</summary>
            <p className="note">
              webhook-id <code>{e.id}</code>
            </p>
            <pre>{payload(e, store)}</pre>
          </details>
        </div>
      </td>
      <td data-label="At (UTC)" className="when">
        {when(e.occurredAt)}
      </td>
      <td data-label="Status">
        <EventState event={e} />
      </td>
      <td data-label="Tries" className="n">
        {e.attempts}
      </td>
      <td data-label="Last answer">
        <div>
          {answer}
          {e.lastError && e.lastStatus !== null ? ` (${e.lastError})` : null}
          <Answer answer={e.lastAnswer} />
        </div>
      </td>
      <td data-label="Next try" className="when">
        {e.state === "pending" ? when(e.nextAttemptAt) : "—"}
      </td>
      <td>
        {e.state === "delivered" ? null : (
          <form method="post" action={CONSOLE_PATHS.webhooks} className="inline">
            <input type="hidden" name="action" value="retry" />
            <input type="hidden" name="id" value={e.id} />
            <button type="submit" className="quiet" aria-label={`Retry now: ${words}, ${when(e.occurredAt)} UTC`}>
              Retry now
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

export function EventRows({ events, store }: { events: EventRow[]; store: Store }) {
  return (
    <CardTable className="cards log">
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">At (UTC)</th>
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
          <Row key={e.id} event={e} store={store} />
        ))}
      </tbody>
    </CardTable>
  );
}
