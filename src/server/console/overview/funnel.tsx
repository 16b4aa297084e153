/**
 * The first page's funnel by source: for the sign-ups of the last 30 or 90 days or of all time, how each source,
 * medium, campaign, referring site and the share links carried people from signing up to confirming, being
 * invited and joining, with each step's share of the step before (funnel-store.ts reads it). The groups with the
 * most sign-ups are shown; the CSV (funnel-csv.ts) holds every one.
 */
import { Fragment } from "react";
import { counted } from "../../../lib/plural";
import { CONSOLE_PATH, CONSOLE_PATHS, consoleHref } from "../paths";
import { Section } from "../ui/parts";
import { Head } from "../ui/table";
import { type Funnel, type FunnelField, type FunnelRange, type FunnelRow, percent } from "./funnel-store";

/** Groups shown per field on the page; the rest are in the CSV. */
export const FUNNEL_SHOWN = 6;

/** Each field's heading and the name of its column. */
const FIELDS: Record<FunnelField, [title: string, column: string]> = {
  source: ["By source", "Source"],
  medium: ["By medium", "Medium"],
  campaign: ["By campaign", "Campaign"],
  referrer: ["By referring site", "Site"],
  share: ["By share link", "How they came"],
};

export const RANGE_WORDS: Record<FunnelRange, string> = { "30": "30 days", "90": "90 days", all: "All time" };

/** A group's name in words: what the row recorded, or that it recorded nothing. */
export function groupName(field: FunnelField, value: string | null): string {
  if (field === "share") return value === null ? "Came by a share link" : value;
  return value ?? "None recorded";
}

/** Everyone who did not come by a share link: the line the share links are read against. */
export function notShared(everyone: FunnelRow, shared: FunnelRow | undefined): FunnelRow {
  return {
    value: "Came another way",
    ...(everyone.visitors === undefined ? {} : { visitors: everyone.visitors - (shared?.visitors ?? 0) }),
    signedUp: everyone.signedUp - (shared?.signedUp ?? 0),
    confirmed: everyone.confirmed - (shared?.confirmed ?? 0),
    invited: everyone.invited - (shared?.invited ?? 0),
    joined: everyone.joined - (shared?.joined ?? 0),
  };
}

/** The groups of a field as the page and the CSV show them (the share links beside everyone else). */
export function groupsOf(funnel: Funnel, field: FunnelField): FunnelRow[] {
  const rows = funnel.fields[field];
  if (field !== "share") return rows;
  const shared = rows[0];
  return [...(shared ? [shared] : []), notShared(funnel.everyone, shared)].filter(
    (row) => row.signedUp > 0 || (row.visitors ?? 0) > 0,
  );
}

/** ", 30% of them": sign-ups as a share of the visitors (more than 100% when sign-ups came from browsers not counted). */
const conversionWords = (row: FunnelRow) => {
  const share = percent(row.signedUp, row.visitors ?? 0);
  return share === null ? "" : `, ${share}% of them`;
};

/** The steps after signing up: each's word, count and share of the step before. */
const steps = (row: FunnelRow): Array<[word: string, n: number, share: number | null]> => [
  ["confirmed", row.confirmed, percent(row.confirmed, row.signedUp)],
  ["invited", row.invited, percent(row.invited, row.confirmed)],
  ["joined", row.joined, percent(row.joined, row.invited)],
];

function Step({ n, of, label }: { n: number; of: number; label: string }) {
  const share = percent(n, of);
  return (
    <td className="n" data-label={label}>
      {n.toLocaleString("en")}
      {share === null ? null : <span className="pct">{share}%</span>}
    </td>
  );
}

function StepCells({ row }: { row: FunnelRow }) {
  return (
    <>
      {row.visitors === undefined ? null : (
        <td className="n" data-label="Visitors">
          {row.visitors.toLocaleString("en")}
        </td>
      )}
      {row.visitors === undefined ? (
        <td className="n" data-label="Signed up">
          {row.signedUp.toLocaleString("en")}
        </td>
      ) : (
        <Step n={row.signedUp} of={row.visitors} label="Signed up" />
      )}
      <Step n={row.confirmed} of={row.signedUp} label="Confirmed" />
      <Step n={row.invited} of={row.confirmed} label="Invited" />
      <Step n={row.joined} of={row.invited} label="Joined" />
    </>
  );
}

/** A table of groups (a field's values, or a question's answers), the largest first, with their steps. */
function GroupTable(props: {
  title: string;
  column: string;
  rows: readonly FunnelRow[];
  visits: boolean;
  name: (row: FunnelRow) => string;
  /** A group whose name says nothing was recorded (shown muted). */
  none?: (row: FunnelRow) => boolean;
}) {
  const { rows, visits } = props;
  const more = rows.length - FUNNEL_SHOWN;
  return (
    <div className="scroll">
      <table className="funnel cards">
        <caption>
          <h3>{props.title}</h3>
        </caption>
        <Head
          columns={[
            props.column,
            ...(visits ? [{ label: "Visitors", numeric: true } as const] : []),
            { label: "Signed up", numeric: true },
            { label: "Confirmed", numeric: true },
            { label: "Invited", numeric: true },
            { label: "Joined", numeric: true },
          ]}
        />
        <tbody>
          {rows.slice(0, FUNNEL_SHOWN).map((row) => (
            <tr key={row.value ?? ""}>
              <th scope="row" className={props.none?.(row) ? "none" : undefined}>
                {props.name(row)}
              </th>
              <StepCells row={row} />
            </tr>
          ))}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={visits ? 6 : 5} className="note">
                No sign-ups in this range.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {more > 0 ? <p className="note">And {counted(more, "more")}, in the CSV.</p> : null}
    </div>
  );
}

function FieldTable({ funnel, field }: { funnel: Funnel; field: FunnelField }) {
  const [title, column] = FIELDS[field];
  return (
    <GroupTable
      title={title}
      column={column}
      rows={groupsOf(funnel, field)}
      visits={funnel.everyone.visitors !== undefined}
      name={(row) => groupName(field, row.value)}
      none={(row) => row.value === null && field !== "share"}
    />
  );
}

/** The funnel's section; `chartRange` is kept in its range links so the chart above stays as it was. */
export function FunnelSection({ funnel, chartRange }: { funnel: Funnel; chartRange: 30 | 90 }) {
  const { everyone } = funnel;
  return (
    <Section id="funnel" title="How each source converts">
      <p className="note">
        Visitors in the range, counted without cookies or stored identifiers, and the people who signed up, grouped by
        source (the visit's and the sign-up's own record); then how many went on to confirm, be invited and join. Each
        percentage is of the step before; sign-ups, of the visitors.
      </p>
      <RangeTabs funnel={funnel} chartRange={chartRange} />
      <EveryoneLines everyone={everyone} />
      <div className="grid wide">
        {(["source", "medium", "campaign", "referrer", "share"] as const).map((field) => (
          <FieldTable key={field} funnel={funnel} field={field} />
        ))}
        {(funnel.answers ?? []).map(({ question, rows }) => (
          <GroupTable
            key={question.id}
            title={`By answer: ${question.label}`}
            column="Answer"
            rows={rows}
            visits={false}
            name={(row) => row.value ?? ""}
          />
        ))}
      </div>
      <p>
        <a className="button quiet" href={consoleHref(CONSOLE_PATHS.funnel, { range: funnel.range })}>
          Download the funnel ({RANGE_WORDS[funnel.range].toLowerCase()}) as CSV
        </a>
      </p>
    </Section>
  );
}

/** The funnel's ranges: 30 days, 90 days, all time (the chart's own range kept). */
function RangeTabs({ funnel, chartRange }: { funnel: Funnel; chartRange: 30 | 90 }) {
  const href = (range: FunnelRange) =>
    `${consoleHref(CONSOLE_PATH, { range: chartRange === 30 ? undefined : chartRange, funnel: range === "30" ? undefined : range })}#funnel`;
  return (
    <ul className="tabs" aria-label="Signed up in">
      {(["30", "90", "all"] as const).map((range) => (
        <li key={range}>
          <a href={href(range)} aria-current={range === funnel.range ? "page" : undefined}>
            {RANGE_WORDS[range]}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Everyone in the range: visitors and the share who signed up, then each step after. */
function EveryoneLines({ everyone }: { everyone: Funnel["everyone"] }) {
  return (
    <>
      <p className="funnel-visitors">
        {everyone.visitors === undefined
          ? "No visits counted in this range yet, so the funnel starts at sign-ups."
          : `Visitors: ${counted(everyone.visitors, "visitor")} in the range; ${counted(everyone.signedUp, "person", "people")} signed up${conversionWords(everyone)}.`}
      </p>
      <p className="funnel-all">
        {everyone.signedUp === 0 ? (
          "Nobody signed up in this range."
        ) : (
          <>
            Everyone: {counted(everyone.signedUp, "person", "people")} signed up
            {steps(everyone).map(([word, n, share]) => (
              <Fragment key={word}>
                {" → "}
                {n.toLocaleString("en")} {word}
                {share === null ? "" : ` (${share}%)`}
              </Fragment>
            ))}
          </>
        )}
      </p>
    </>
  );
}
