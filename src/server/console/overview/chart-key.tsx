/**
 * The chart's key and its numbers (chart.tsx draws it): each colour, the line and the marks named in words, and a
 * table of every day's sign-ups by status, the list in all and what went out, for anyone who cannot see the bars
 * and anyone who wants the figures.
 */
import type { ReactNode } from "react";
import { ENTRY_STATUSES } from "../../entry";
import type { ChartDay, ChartMark } from "../store";
import { STATUS_LABELS } from "../ui/parts";
import { CardTable } from "../ui/table";
import { LINE_COLOUR, longDayLabel, MARK_COLOUR, markWords, STATUS_COLOURS, VISITORS_COLOUR } from "./chart-scale";

/** The key to the colours, the line and the marks, in words beside each. */
export function Legend({ marks, visitors = false }: { marks: readonly ChartMark[]; visitors?: boolean }) {
  const swatch = (shape: ReactNode) => (
    <svg width="16" height="16" aria-hidden="true" focusable="false">
      {shape}
    </svg>
  );
  return (
    <ul className="legend">
      {ENTRY_STATUSES.map((status) => (
        <li key={status}>
          {swatch(<rect x="1" y="1" width="14" height="14" rx="3" fill={STATUS_COLOURS[status]} />)}
          {STATUS_LABELS[status]}
        </li>
      ))}
      <li>
        {swatch(<line x1="1" x2="15" y1="8" y2="8" stroke={LINE_COLOUR} strokeWidth={2} />)}
        On the list in all (right-hand scale)
      </li>
      {visitors ? (
        <li>
          {swatch(<line x1="1" x2="15" y1="8" y2="8" stroke={VISITORS_COLOUR} strokeWidth={2} strokeDasharray="5 3" />)}
          Visitors a day (left-hand scale)
        </li>
      ) : null}
      {marks.some((m) => m.kind === "wave") ? (
        <li>{swatch(<rect x="4" y="4" width="8" height="8" fill={MARK_COLOUR} />)}A wave went out</li>
      ) : null}
      {marks.some((m) => m.kind === "update") ? (
        <li>
          {swatch(<circle cx="8" cy="8" r="4.5" fill="#fff" stroke={MARK_COLOUR} strokeWidth={2} />)}
          An update went out
        </li>
      ) : null}
    </ul>
  );
}

/** Every day's numbers, for anyone who cannot see the bars, and anyone who wants the figures. */
export function Numbers({
  days,
  marks,
  range,
}: {
  days: readonly ChartDay[];
  marks: readonly ChartMark[];
  range: number;
}) {
  const visits = days.some((d) => d.visitors !== undefined);
  return (
    <details>
      <summary>The numbers, day by day</summary>
      <CardTable className="days cards">
        <caption className="note">Sign-ups per day (UTC) by what became of them, last {range} days</caption>
        <NumbersHead visits={visits} />
        <tbody>
          {days.map((day) => (
            <NumbersRow key={day.day} day={day} marks={marks} visits={visits} />
          ))}
        </tbody>
      </CardTable>
    </details>
  );
}

function NumbersHead({ visits }: { visits: boolean }) {
  return (
    <thead>
      <tr>
        <th scope="col">Day</th>
        {ENTRY_STATUSES.map((s) => (
          <th key={s} scope="col" className="n">
            {STATUS_LABELS[s]}
          </th>
        ))}
        {visits ? (
          <th scope="col" className="n">
            Visitors
          </th>
        ) : null}
        <th scope="col" className="n">
          Signed up
        </th>
        <th scope="col" className="n">
          On the list
        </th>
        <th scope="col">Went out</th>
      </tr>
    </thead>
  );
}

/** One day: its sign-ups by status, visitors, total, running total, and what went out that day. */
function NumbersRow({ day, marks, visits }: { day: ChartDay; marks: readonly ChartMark[]; visits: boolean }) {
  const went = marks
    .filter((m) => m.day === day.day)
    .map(markWords)
    .join("; ");
  return (
    <tr>
      <th scope="row">{longDayLabel(day.day)}</th>
      {ENTRY_STATUSES.map((s) => (
        <td key={s} className="n" data-label={STATUS_LABELS[s]}>
          {day.counts[s].toLocaleString("en")}
        </td>
      ))}
      {visits ? (
        <td className="n" data-label="Visitors">
          {(day.visitors ?? 0).toLocaleString("en")}
        </td>
      ) : null}
      <td className="n" data-label="Signed up">
        {day.total.toLocaleString("en")}
      </td>
      <td className="n" data-label="On the list">
        {day.running.toLocaleString("en")}
      </td>
      <td data-label="Went out">{went}</td>
    </tr>
  );
}
