/**
 * Updates' SQL: the audience, an update and its recipients recorded in one statement (the audience of that moment,
 * nobody added or lost later), who is sending it, each recipient's fate, the choices people make, and the list of
 * past updates with their counts. Every statement stands alone (Neon's HTTP driver has no session); what keeps two
 * senders apart is the update's owner, taken and released by the long-job core (jobs/lease.ts). store.ts runs them.
 */
import { PERSON_COLUMNS } from "../data-key";

/**
 * The run (`$3`) still owns update `$1`: a run that lost it (silent past the staleness limit, taken over) marks
 * nobody, so two runs never both send to one person.
 */
const OWNED = "EXISTS (SELECT 1 FROM waitlist_update o WHERE o.id = $1 AND o.owner = $3)";
/** Who an update goes to: confirmed, still on the list, and said yes. */
const AUDIENCE = "w.status = 'confirmed' AND w.updates_consent";
/** Of them, when it goes to a segment (a People filter), only people `$n`: that filter's matches (NULL: all). */
const AMONG = (n: number) => `($${n}::bigint[] IS NULL OR w.id = ANY($${n}::bigint[]))`;
/** Person `w` has received an update with subject `$1` and body `$2` (accepted, or counted sent: IN_DOUBT). */
/**
 * The ids of the updates with those words come first (an ARRAY initplan), so only their recipients are read, by the
 * recipients' primary key (update_id, waitlist_id), never the whole recipients table: at 1,000,000 sign-ups and five
 * past updates, a join on the words read all 5,000,000 recipient rows (6.6–7.3 s, past the 5 s a page may take).
 */
const notGiven = (states: string) => `NOT EXISTS (SELECT 1 FROM waitlist_update_recipient r
    WHERE r.waitlist_id = w.id AND r.state IN (${states})
      AND r.update_id = ANY (ARRAY(SELECT u.id FROM waitlist_update u WHERE u.subject = $1 AND u.body = $2)))`;
const NOT_RECEIVED = notGiven("'sent', 'attempted'");
/** Nor is on their way to receive them (queued by an update to another segment): a new update leaves them out. */
const NOT_GIVEN = notGiven("'sent', 'attempted', 'queued'");
/** A token of an update older than this unsubscribes nobody (its page still answers the same). */
export const UNSUBSCRIBE_DAYS = 365;

export const UPDATE_SQL = {
  audience: `SELECT count(*)::int AS audience FROM waitlist w WHERE ${AUDIENCE}`,
  /**
   * A new update and, in the same statement, its recipients: everyone in the audience now (of a segment `$5`, its
   * people `$6`) who has not received these words already (by an update to another segment: nobody twice). A second
   * confirmation of one console preview (its ticket `$4`) makes nothing and finds the first.
   */
  create: `WITH made AS (
      INSERT INTO waitlist_update (subject, body, author, ticket, segment) VALUES ($1, $2, $3, $4, $5::text)
      ON CONFLICT (ticket) DO NOTHING RETURNING id
    ), recipients AS (
      INSERT INTO waitlist_update_recipient (update_id, waitlist_id)
      SELECT made.id, w.id FROM made, waitlist w WHERE ${AUDIENCE} AND ${AMONG(6)} AND ${NOT_GIVEN} RETURNING 1
    )
    SELECT (SELECT id FROM made) AS id, (SELECT count(*)::int FROM recipients) AS recipients,
      (SELECT id FROM waitlist_update WHERE ticket = $4) AS existing`,
  /**
   * Sending the same words again (start.ts): everyone in the audience now who has not received an update with
   * subject `$1` and body `$2` (sent, or on its way when a run died: counted sent), of people `$3` for a segment.
   * Those it failed, skipped or never reached are in it.
   */
  againAudience: `SELECT count(*)::int AS audience FROM waitlist w WHERE ${AUDIENCE} AND ${NOT_RECEIVED} AND ${AMONG(3)}`,
  /**
   * The explicit "send it again": a new update with the same words to againAudience's people. Its ticket (`$4`)
   * names the update it follows, so a double click or two tabs make one. A segment's (`$5`): of its people `$6`.
   */
  createAgain: `WITH made AS (
      INSERT INTO waitlist_update (subject, body, author, ticket, segment) VALUES ($1, $2, $3, $4, $5::text)
      ON CONFLICT (ticket) DO NOTHING RETURNING id
    ), recipients AS (
      INSERT INTO waitlist_update_recipient (update_id, waitlist_id)
      SELECT made.id, w.id FROM made, waitlist w WHERE ${AUDIENCE} AND ${NOT_RECEIVED} AND ${AMONG(6)} RETURNING 1
    )
    SELECT (SELECT id FROM made) AS id, (SELECT count(*)::int FROM recipients) AS recipients,
      (SELECT id FROM waitlist_update WHERE ticket = $4) AS existing`,
  /** The update a ticket made, if any. */
  byTicket: "SELECT id FROM waitlist_update WHERE ticket = $1",
  /** The latest update with this subject and body to segment `$3` (start.ts: the same words are that update). */
  same: `SELECT id, finished_at IS NOT NULL AS finished, created_at, sent FROM waitlist_update
    WHERE subject = $1 AND body = $2 AND segment IS NOT DISTINCT FROM $3::text ORDER BY id DESC LIMIT 1`,
  /** Update `$1`: its words, counts, and who is sending it (stale: silent for `$2` seconds). */
  get: `SELECT id, subject, body, owner, finished_at IS NOT NULL AS finished, sent, failed,
      heartbeat_at < now() - make_interval(secs => $2::int) AS stale,
      (SELECT count(*)::int FROM waitlist_update_recipient r WHERE r.update_id = u.id) AS recipients,
      (SELECT count(*)::int FROM waitlist_update_recipient r
        WHERE r.update_id = u.id AND r.state IN ('queued', 'attempted')) AS remaining
    FROM waitlist_update u WHERE id = $1`,
  /**
   * The next `$2` recipients of update `$1` still to be dealt with, in order, with whether they may still be sent
   * it (confirmed, on the list, still saying yes).
   */
  next: `SELECT r.waitlist_id AS id, r.state, ${PERSON_COLUMNS.split(", ")
    .map((c) => `w.${c}`)
    .join(", ")}, (${AUDIENCE}) AS still
    FROM waitlist_update_recipient r JOIN waitlist w ON w.id = r.waitlist_id
    WHERE r.update_id = $1 AND r.state IN ('queued', 'attempted') AND NOT (r.waitlist_id = ANY($3::bigint[]))
    ORDER BY r.tries, r.waitlist_id LIMIT $2`,
  /**
   * Recipient `$2`'s message is whole on the server but for its last bytes: from now on it may be accepted. False
   * when they may no longer be sent it (they stopped updates or left meanwhile): the message is abandoned.
   */
  attempted: `UPDATE waitlist_update_recipient r SET state = 'attempted'
    FROM waitlist w WHERE r.update_id = $1 AND r.waitlist_id = $2 AND w.id = r.waitlist_id
      AND r.state = 'queued' AND ${AUDIENCE} AND ${OWNED}
    RETURNING r.waitlist_id`,
  /**
   * A message the server would not take now (4xx): the recipient is queued again, `$4` tries more (1: refused for
   * this address, moving them behind the others; 0: the server as a whole). Resolves to their tries.
   */
  requeue: `UPDATE waitlist_update_recipient SET state = 'queued', tries = tries + $4::int
    WHERE update_id = $1 AND waitlist_id = $2 AND state IN ('queued', 'attempted') AND ${OWNED}
    RETURNING tries`,
  /** Recipient `$2`'s fate `$3` ('sent', 'failed' with error `$4`, 'skipped'), counted on the update; it beats. */
  done: `WITH marked AS (
      UPDATE waitlist_update_recipient SET state = $3, done_at = now(), error = $4
      WHERE update_id = $1 AND waitlist_id = $2 AND state IN ('queued', 'attempted') AND ${OWNED.replace("$3", "$5")}
      RETURNING state
    )
    UPDATE waitlist_update SET heartbeat_at = now(),
      sent = sent + (SELECT count(*)::int FROM marked WHERE state = 'sent'),
      failed = failed + (SELECT count(*)::int FROM marked WHERE state = 'failed')
    WHERE id = $1 AND EXISTS (SELECT 1 FROM marked)
    RETURNING id`,
  /** Past updates, newest first: counts, and how many of those sent it have stopped updates since. */
  list: `SELECT u.id, u.subject, u.created_at, u.finished_at IS NOT NULL AS finished, u.owner, u.sent, u.failed,
      (SELECT count(*)::int FROM waitlist_update_recipient r
        WHERE r.update_id = u.id AND r.state IN ('queued', 'attempted')) AS remaining,
      (SELECT count(*)::int FROM waitlist w JOIN waitlist_update_recipient r
          ON r.update_id = u.id AND r.waitlist_id = w.id AND r.state = 'sent'
        WHERE w.updates_consent = false AND w.updates_consent_at >= u.created_at) AS unsubscribed
    FROM waitlist_update u ORDER BY u.id DESC LIMIT $1`,
  /** A person's choice `$2` by their status link (hash `$1`), with the words' version `$3`. */
  choose: `UPDATE waitlist SET updates_consent = $2, updates_consent_at = now(), updates_consent_words = $3
    WHERE id = (SELECT waitlist_id FROM waitlist_token WHERE token_hash = $1 AND purpose = 'status')
      AND status <> 'pending'
    RETURNING id`,
  /** The same choice `$2` by the status link an update carries: person `$1`'s (status-token.ts). */
  chooseById: `UPDATE waitlist SET updates_consent = $2, updates_consent_at = now(), updates_consent_words = $3
    WHERE id = $1 AND status <> 'pending'
    RETURNING id`,
  /**
   * Person `$2` stops updates by the link of update `$1` they were sent (within UNSUBSCRIBE_DAYS), as `$3` says
   * (the words' version, or 'one-click'). Nothing for a person who had stopped already.
   */
  unsubscribe: `UPDATE waitlist w SET updates_consent = false, updates_consent_at = now(), updates_consent_words = $3
    WHERE w.id = $2 AND w.updates_consent IS DISTINCT FROM false
      AND EXISTS (SELECT 1 FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
        WHERE r.update_id = $1 AND r.waitlist_id = $2
          AND u.created_at > now() - make_interval(days => ${UNSUBSCRIBE_DAYS}))
    RETURNING w.id`,
  /** Person `$1`'s choice as it stands (no row: they left), for the page an update's link opens. */
  consent: `SELECT updates_consent FROM waitlist WHERE id = $1`,
  /**
   * Person `$2`, who was sent update `$1`, asks for updates again from that update's link, shown the words of
   * version `$3`: recorded as the status page's choice is. Within UNSUBSCRIBE_DAYS, as stopping is.
   */
  resubscribe: `UPDATE waitlist w SET updates_consent = true, updates_consent_at = now(), updates_consent_words = $3
    WHERE w.id = $2 AND w.status <> 'pending'
      AND EXISTS (SELECT 1 FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
        WHERE r.update_id = $1 AND r.waitlist_id = $2
          AND u.created_at > now() - make_interval(days => ${UNSUBSCRIBE_DAYS}))
    RETURNING w.id`,
  /** Person `$2` leaves the list by the link of update `$1` they were sent: the row goes, as by a removal link. */
  leave: `DELETE FROM waitlist w WHERE w.id = $2
      AND EXISTS (SELECT 1 FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
        WHERE r.update_id = $1 AND r.waitlist_id = $2
          AND u.created_at > now() - make_interval(days => ${UNSUBSCRIBE_DAYS}))
    RETURNING w.id`,
} as const;
