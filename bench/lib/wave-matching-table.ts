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
  /** From the confirmation to the end of the watch. */
  watchedMs: number;
  /** `--max-minutes`: the most the bench watched (null: until done, with a generous limit). */
  maxMinutes: number | null;
  reach: { messages: number; recipients: number; twice: number; perSecond: number };
  /** Recipients at the SMTP server who were not to be invited; people to be invited with no message there. */
  strangers: number;
  unreached: number;
  /** Messages of other subjects meanwhile ("subject: count"): what the schedules sent (reminders to the pending). */
  otherMail: string[];
  outcome: Outcome;
  runs: { outcomes: string[]; resumed: number; failures: string[] };
}

const n = (value: number) => value.toLocaleString("en");
const ms = (value: number) => `${Math.round(value).toLocaleString("en")} ms`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");
/** The load averages of an `uptime` line. */
const loads = (line: string) => /load average: (.*)$/.exec(line)?.[1] ?? line;

/**
 * The checks the run must pass, each with its words. A wave the bench stopped watching unfinished is checked on what
 * it did: everyone it mailed and invited matching, once each, and as many invited as mailed.
 */
function checks(r: WaveRun): Array<[string, boolean]> {
  const finished = r.watched.row?.finished != null && !r.watched.timedOut;
  const invited = r.outcome.byStatus["invited"] ?? 0;
  const common: Array<[string, boolean]> = [
    ["no request after the confirmation", r.requestsAfter === 0],
    ["the question counted everyone matching", r.asked.asked === r.expected],
    ["nobody mailed twice", r.reach.twice === 0],
    ["nobody invited by anything else meanwhile", r.outcome.invitedElsewhere === 0],
  ];
  if (!finished) {
    return [
      [`finished by itself (watched ${minutes(r.watchedMs)})`, false],
      ...common,
      [
        "everyone mailed so far matching, and invited: as many invited as mailed",
        r.strangers === 0 && r.outcome.extra === 0 && invited === r.reach.messages,
      ],
    ];
  }
  return [
    ["finished by itself", true],
    ...common,
    [
      "one invitation each to every matching person, nobody else",
      r.reach.messages === r.expected && r.reach.recipients === r.expected && r.strangers + r.unreached === 0,
    ],
    ["every matching person invited, nobody else", r.outcome.missing + r.outcome.extra + r.outcome.held === 0],
  ];
}

const minutes = (value: number) => `${(value / 60_000).toFixed(1)} min`;

/** The time row: to `finished_at`, or what was done when the watch ended and what the rest would take at that pace. */
function doneRows(r: WaveRun): Array<[string, string]> {
  const row = r.watched.row;
  if (row?.finished) {
    const doneMs = row.finished.getTime() - r.asked.pressedAt.getTime();
    return [
      ["from the confirmation to the wave's `finished_at`", `${(doneMs / 1000).toFixed(1)} s (${minutes(doneMs)})`],
      [
        "invitations a second: N ÷ that time; the SMTP server's first to last",
        `${(r.asked.asked / (doneMs / 1000)).toFixed(1)}; ${r.reach.perSecond.toFixed(1)}`,
      ],
    ];
  }
  const invited = row?.invited ?? 0;
  const rate = invited / (r.watchedMs / 1000);
  return [
    [
      `the wave's \`finished_at\``,
      `not reached: watched ${minutes(r.watchedMs)}${r.maxMinutes === null ? "" : ` (\`--max-minutes ${r.maxMinutes}\`)`}`,
    ],
    [
      "invited by then (the wave's row), of N",
      `${n(invited)} of ${n(r.asked.asked)} (${((100 * invited) / r.asked.asked).toFixed(1)} %)`,
    ],
    [
      "invitations a second: invited ÷ time watched; the SMTP server's first to last",
      `${rate.toFixed(1)}; ${r.reach.perSecond.toFixed(1)}`,
    ],
    [
      "at that rate, the whole wave from the confirmation",
      rate > 0
        ? `${minutes((r.asked.asked / rate) * 1000)} (${(r.asked.asked / rate / 3600).toFixed(1)} h), about ${Math.ceil(r.asked.asked / rate / 780)} runs of 13 min`
        : "—",
    ],
  ];
}

export function waveTable(r: WaveRun): { body: string; ok: boolean } {
  const row = r.watched.row;
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
    ...doneRows(r),
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
      "invitations accepted (by their subject); distinct recipients; of them twice or more",
      `${n(r.reach.messages)}; ${n(r.reach.recipients)}; ${n(r.reach.twice)}`,
    ],
    ["recipients not matching; matching people with no message", `${n(r.strangers)}; ${n(r.unreached)}`],
    ["other messages meanwhile (the schedules', not the wave's), by subject", r.otherMail.join("; ") || "none"],
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
    "message and counts it by subject and recipient (`MAIL_RATE_PER_SECOND=unlimited`), the scheduled functions on their cron",
    "(jobs-resume every minute; mail-reminders too, which mails the fill's pending people meanwhile: counted apart). The bench is the operator's browser, signed in by the link the console mails to `ADMIN_EMAILS`: it opens",
    `People filtered by ${answer}, reads “Invite everyone matching (…)”, presses it, reads N from the question, and`,
    "posts the confirmation once; after that it sends no request, and only reads the database (the wave's row every",
    "second) and the SMTP server's counts until the wave's `finished_at`. The background runs are the product's own:",
    "13 minutes each (RUN_MS, of Netlify's 15), then a successor. No hook shortens them: the tests shorten a run by",
    "giving the handler `runMs` in-process, and `npm start`'s server has no such setting, so the successors counted",
    "are those a real wave of this size needs. The runs are counted from the server's own log (`jobs.run_ended`).",
    ...(r.maxMinutes === null
      ? []
      : [
          `Watched ${r.maxMinutes} minutes at most (\`--max-minutes ${r.maxMinutes}\`): a wave not finished by then is paused by its row, as`,
          "the console's Pause does, once the watch is over (the rate is of the watch), and its counts read after.",
        ]),
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
