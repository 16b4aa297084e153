/**
 * bench/wave-matching.ts's table for docs/performance.md: what one run measured, with a mark on each check, and
 * whether every check held (the bench exits 1 otherwise).
 */
import type { Outcome, Watched } from "./wave-watch";

export interface WaveRun {
  /** The commit measured (with -dirty while src/ and the rest differ from it). */
  code: string;
  /** `uptime` when the bench began, at the confirmation, and at the end. */
  uptime: { before: string; atPress: string; after: string };
  size: number;
  answer: { question: string; value: string };
  filled: { fillSeconds: number; analyzeSeconds: number };
  /** Confirmed, in no wave, not suppressed, with the answer: by raw SQL before the confirmation. */
  expected: number;
  asked: {
    /** What "Invite everyone matching (…)" said. */
    button: string;
    /** N, as the question counted them. */
    asked: number;
    peopleMs: number;
    askedMs: number;
    pressMs: number;
    pressedAt: Date;
    id: number;
  };
  requestsAfter: number;
  watched: Watched;
  timeoutMs: number;
  reach: { messages: number; recipients: number; twice: number; perSecond: number };
  /** Recipients at the SMTP server who were not to be invited; people to be invited with no message there. */
  strangers: number;
  unreached: number;
  outcome: Outcome;
  runs: { outcomes: string[]; resumed: number; failures: string[] };
}

const n = (value: number) => value.toLocaleString("en");
const ms = (value: number) => `${Math.round(value).toLocaleString("en")} ms`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");
/** The load averages of an `uptime` line. */
const loads = (line: string) => /load average: (.*)$/.exec(line)?.[1] ?? line;

/** The checks the run must pass, each with its words. */
function checks(r: WaveRun): Array<[string, boolean]> {
  return [
    ["finished by itself within its time", r.watched.row?.finished != null && !r.watched.timedOut],
    ["no request after the confirmation", r.requestsAfter === 0],
    ["the question counted everyone matching", r.asked.asked === r.expected],
    ["one invitation each, nobody twice", r.reach.twice === 0 && r.reach.messages === r.expected],
    ["every matching person mailed, nobody else", r.reach.recipients === r.expected && r.strangers + r.unreached === 0],
    ["every matching person invited, nobody else", r.outcome.missing + r.outcome.extra + r.outcome.held === 0],
    ["nobody invited by anything else meanwhile", r.outcome.invitedElsewhere === 0],
  ];
}

export function waveTable(r: WaveRun): { body: string; ok: boolean } {
  const row = r.watched.row;
  const doneMs = row?.finished ? row.finished.getTime() - r.asked.pressedAt.getTime() : Number.NaN;
  const runs = r.runs.outcomes.length;
  const successors = r.runs.outcomes.filter((outcome) => outcome === "more").length;
  const owners = r.watched.owners.filter((owner) => owner.startsWith("background-wave-")).length;
  const answer = `\`${r.answer.question}\` is ${r.answer.value}`;
  const results = checks(r);
  const ok = results.every(([, passed]) => passed);
  const rows: Array<[string, string]> = [
    [
      "sign-ups filled by SQL; fill; `VACUUM ANALYZE`",
      `${n(r.size)}; ${r.filled.fillSeconds.toFixed(1)} s; ${r.filled.analyzeSeconds.toFixed(1)} s`,
    ],
    [`confirmed people waiting whose ${answer} (raw SQL, before)`, n(r.expected)],
    [
      `People filtered by it (\`?answer:${r.answer.question}=${r.answer.value}\`): the page; its button`,
      `${ms(r.asked.peopleMs)}; “Invite everyone matching (${r.asked.button})”`,
    ],
    ["the question it asks (once): N; answered in", `${n(r.asked.asked)}; ${ms(r.asked.askedMs)}`],
    ["the confirmation answered (303; N reserved, the wave started in the background)", ms(r.asked.pressMs)],
    ["HTTP requests from the browser after it", n(r.requestsAfter)],
    [
      "from the confirmation to the wave's `finished_at`",
      Number.isNaN(doneMs) ? "not finished" : `${(doneMs / 1000).toFixed(1)} s (${(doneMs / 60_000).toFixed(1)} min)`,
    ],
    [
      "invitations a second: N ÷ that time; the SMTP server's first to last",
      `${Number.isNaN(doneMs) ? "—" : (r.asked.asked / (doneMs / 1000)).toFixed(1)}; ${r.reach.perSecond.toFixed(1)}`,
    ],
    [
      "background runs (each 13 min at most); of them ending with a successor; owners seen holding the wave",
      `${n(runs)} (${r.runs.outcomes.join(", ") || "none logged"}); ${n(successors)}; ${n(owners)}`,
    ],
    [
      "starts by jobs-resume (a run that died); error lines in the server's log",
      `${n(r.runs.resumed)}; ${r.runs.failures.length ? r.runs.failures.join(", ") : "none"}`,
    ],
    [
      "load average (1 min) during the wave, mean (highest)",
      `${r.watched.load.mean.toFixed(1)} (${r.watched.load.max.toFixed(1)})`,
    ],
    [
      "`uptime` load averages (1, 5, 15 min): at the start; at the confirmation; at the end",
      `${loads(r.uptime.before)}; ${loads(r.uptime.atPress)}; ${loads(r.uptime.after)}`,
    ],
    [
      "messages accepted; distinct recipients; of them twice or more",
      `${n(r.reach.messages)}; ${n(r.reach.recipients)}; ${n(r.reach.twice)}`,
    ],
    ["recipients not matching; matching people with no message", `${n(r.strangers)}; ${n(r.unreached)}`],
    [
      "the wave's people by status (`invited_wave_id`); still held by it (`invite_wave_id`)",
      `${
        Object.entries(r.outcome.byStatus)
          .map(([s, c]) => `${s} ${n(c)}`)
          .join(", ") || "none"
      }; ${n(r.outcome.held)}`,
    ],
    [
      "matching people not invited; invited people not matching; invited by anything else since",
      `${n(r.outcome.missing)}; ${n(r.outcome.extra)}; ${n(r.outcome.invitedElsewhere)}`,
    ],
    ["the wave's row: `invited`, `refused`", row ? `${n(row.invited)}, ${n(row.refused)}` : "no row"],
    ...results.map(([what, passed]): [string, string] => [what, mark(passed)]),
  ];
  const body = [
    "## A wave of everyone matching an answer, at a million (`npm run bench -- wave-matching`)",
    "",
    `Issue 50, point 6. ${n(r.size)} sign-ups filled by SQL (bench/lib/scale-measure.ts \`fillSql\`, the scale bench's fill:`,
    "two choice questions answered, `team-size` and `role`) in a throw-away PostgreSQL 15 database on 127.0.0.1:5432,",
    "then `VACUUM ANALYZE`; served by `npm start`'s server (scripts/serve.ts) asking those two questions from a copy of",
    "questions.json (tests/support/questions-hook.mjs), mail on to an SMTP server on 127.0.0.1 that accepts every",
    "message and counts it per recipient (`MAIL_RATE_PER_SECOND=unlimited`), the scheduled functions on their cron",
    "(jobs-resume every minute). The bench is the operator's browser, signed in by the link the console mails to `ADMIN_EMAILS`: it opens",
    `People filtered by ${answer}, reads “Invite everyone matching (…)”, presses it, reads N from the question, and`,
    "posts the confirmation once; after that it sends no request, and only reads the database (the wave's row every",
    "second) and the SMTP server's counts until the wave's `finished_at`. The background runs are the product's own:",
    "13 minutes each (RUN_MS, of Netlify's 15), then a successor. No hook shortens them: the tests shorten a run by",
    "giving the handler `runMs` in-process, and `npm start`'s server has no such setting, so the successors counted",
    "are those a real wave of this size needs. The runs are counted from the server's own log (`jobs.run_ended`).",
    "",
    `Measured on ${r.asked.pressedAt.toISOString().slice(0, 10)}, code ${r.code}, on the project machine's 2 cores, shared with`,
    "PostgreSQL, the server, the SMTP server and other engineers' work: the rate moves with the load, given below.",
    "",
    "| | |",
    "| --- | ---: |",
    ...rows.map(([what, figure]) => `| ${what} | ${figure} |`),
  ].join("\n");
  return { body, ok };
}
