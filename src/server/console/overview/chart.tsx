/**
 * Sign-ups per day as an SVG made on the server: each day's bar stacked by what became of its sign-ups (pending,
 * confirmed, invited, joined), the running total as a line on its own scale, and a mark on each day a wave or an
 * update went out. No script and no style attribute (the console's CSP allows neither): presentation attributes
 * only.
 *
 * Why no viewBox: a viewBox scales the whole drawing to the page's width, its words with it (12 px written became
 * about 5 px on a phone). Here the SVG is as wide as its box, every x is a percentage of that width and every y a
 * pixel, so the axis words are drawn at their own size (12 px) at 375 px as at 1280, and sit exactly at the day or
 * the line they name. Named by its title and description for assistive technology; the numbers, every day by
 * status, are in a table under it.
 */
import { ENTRY_STATUSES } from "../../entry";
import type { ChartDay, ChartMark } from "../store";
import { STATUS_LABELS } from "../ui/parts";
import { Legend, Numbers } from "./chart-key";
import {
  AXIS_COLOUR,
  dayLabel,
  describeGrowth,
  GRID_COLOUR,
  LINE_COLOUR,
  longDayLabel,
  MARK_COLOUR,
  markWords,
  niceMax,
  STACK_ORDER,
  STATUS_COLOURS,
  TEXT_COLOUR,
  VISITORS_COLOUR,
} from "./chart-scale";

const HEIGHT = 236;
/** The plot's top and bottom (px): the scales' labels above it, the marks and the days below. */
const TOP = 20;
const BASE = 196;
const PLOT = BASE - TOP;
const FONT = 12;

const pct = (n: number) => `${n.toFixed(3)}%`;
const px = (n: number) => Number(n.toFixed(1));
/** Words with a white halo, so a bar behind them never makes them unreadable. */
const halo = { stroke: "#fff", strokeWidth: 3, paintOrder: "stroke", strokeLinejoin: "round" } as const;

function Axis({ most, total }: { most: number; total: number }) {
  const half = TOP + PLOT / 2;
  const label = (y: number, text: string, end = false) => (
    <text
      x={end ? "100%" : 0}
      y={y - 4}
      fontSize={FONT}
      fill={TEXT_COLOUR}
      textAnchor={end ? "end" : "start"}
      {...halo}
    >
      {text}
    </text>
  );
  return (
    <g>
      <line x1="0" x2="100%" y1={TOP} y2={TOP} stroke={GRID_COLOUR} />
      <line x1="0" x2="100%" y1={half} y2={half} stroke={GRID_COLOUR} />
      {label(TOP, `${most.toLocaleString("en")} a day`)}
      {label(half, (most / 2).toLocaleString("en"))}
      {label(TOP, `${total.toLocaleString("en")} in all`, true)}
      {label(half, (total / 2).toLocaleString("en"), true)}
    </g>
  );
}

function Bars({ days, most }: { days: readonly ChartDay[]; most: number }) {
  const slot = 100 / days.length;
  return (
    <g>
      {days.map((day, i) => {
        if (day.total <= 0) return null;
        let y = BASE;
        return (
          <g key={day.day}>
            <title>{`${longDayLabel(day.day)}: ${day.total} signed up; ${ENTRY_STATUSES.map((s) => `${day.counts[s]} ${STATUS_LABELS[s].toLowerCase()}`).join(", ")}`}</title>
            {STACK_ORDER.map((status) => {
              const count = day.counts[status];
              if (count <= 0) return null;
              const height = Math.max(1, (count / most) * PLOT);
              y -= height;
              return (
                <rect
                  key={status}
                  x={pct(i * slot + slot * 0.15)}
                  width={pct(slot * 0.7)}
                  y={px(y)}
                  height={px(height)}
                  fill={STATUS_COLOURS[status]}
                />
              );
            })}
          </g>
        );
      })}
    </g>
  );
}

/**
 * A value of each day's, point to point at each day's middle (a polyline cannot take percentages: lines can), on
 * the scale whose top is `top`; `dash` draws it dashed.
 */
function DayLine({
  days,
  value,
  top,
  colour,
  dash,
}: {
  days: readonly ChartDay[];
  value: (day: ChartDay) => number;
  top: number;
  colour: string;
  dash?: string;
}) {
  const slot = 100 / days.length;
  const y = (day: ChartDay | undefined) => px(BASE - ((day ? value(day) : 0) / top) * PLOT);
  return (
    <g>
      {days.slice(1).map((day, i) => (
        <line
          key={day.day}
          x1={pct((i + 0.5) * slot)}
          x2={pct((i + 1.5) * slot)}
          y1={y(days[i])}
          y2={y(day)}
          stroke={colour}
          strokeWidth={2}
          strokeDasharray={dash}
          strokeLinecap="round"
        />
      ))}
    </g>
  );
}

/** A dashed line on each day something went out, a square under it for a wave, a circle for an update. */
function Marks({ days, marks }: { days: readonly ChartDay[]; marks: readonly ChartMark[] }) {
  const slot = 100 / days.length;
  const index = new Map(days.map((d, i) => [d.day, i]));
  const seen = new Map<string, ChartMark[]>();
  for (const mark of marks) {
    const key = `${mark.day} ${mark.kind}`;
    seen.set(key, [...(seen.get(key) ?? []), mark]);
  }
  return (
    <g>
      {[...seen.entries()].map(([key, same]) => {
        const first = same[0] as ChartMark;
        const i = index.get(first.day);
        if (i === undefined) return null;
        const x = pct((i + 0.5) * slot);
        return (
          <g key={key}>
            <title>{`${longDayLabel(first.day)}: ${same.map(markWords).join("; ")}`}</title>
            <line x1={x} x2={x} y1={TOP} y2={BASE} stroke={MARK_COLOUR} strokeDasharray="3 3" />
            {first.kind === "wave" ? (
              <rect x={x} y={BASE + 4} width={8} height={8} transform="translate(-4 0)" fill={MARK_COLOUR} />
            ) : (
              <circle cx={x} cy={BASE + 8} r={4.5} fill="#fff" stroke={MARK_COLOUR} strokeWidth={2} />
            )}
          </g>
        );
      })}
    </g>
  );
}

/** The first, middle and last days under the bars, each centred on its own bar (the edges held inside the box). */
function Days({ days }: { days: readonly ChartDay[] }) {
  const slot = 100 / days.length;
  const picks = [...new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])];
  return (
    <g>
      {picks.map((i) => {
        const anchor = i === 0 ? "start" : i === days.length - 1 ? "end" : "middle";
        const x = anchor === "start" ? 0 : anchor === "end" ? 100 : (i + 0.5) * slot;
        return (
          <text key={i} x={pct(x)} y={HEIGHT - 4} fontSize={FONT} fill={TEXT_COLOUR} textAnchor={anchor}>
            {dayLabel(days[i]?.day ?? "")}
          </text>
        );
      })}
    </g>
  );
}

export function GrowthChart({
  days,
  marks,
  range,
  id,
}: {
  days: readonly ChartDay[];
  marks: readonly ChartMark[];
  range: number;
  id: string;
}) {
  const most = niceMax(Math.max(0, ...days.map((d) => Math.max(d.total, d.visitors ?? 0))));
  const visitors = days.some((d) => d.visitors !== undefined);
  const total = niceMax(days.at(-1)?.running ?? 0);
  const description = describeGrowth(days);
  return (
    <div className="chart">
      <p className="note">{description}</p>
      {days.length > 0 ? (
        <svg className="chart-plot" width="100%" height={HEIGHT} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
          <title id={`${id}-title`}>Sign-ups per day by what became of them, and the list in all</title>
          <desc id={`${id}-desc`}>{description}</desc>
          <Axis most={most} total={total} />
          <Bars days={days} most={most} />
          <Marks days={days} marks={marks} />
          <line x1="0" x2="100%" y1={BASE} y2={BASE} stroke={AXIS_COLOUR} />
          {/* The running total on its own scale; the site's visitors, dashed, on the per-day scale (how many came,
              beside how many signed up). */}
          <DayLine days={days} value={(d) => d.running} top={total} colour={LINE_COLOUR} />
          {visitors ? (
            <DayLine days={days} value={(d) => d.visitors ?? 0} top={most} colour={VISITORS_COLOUR} dash="5 3" />
          ) : null}
          <Days days={days} />
        </svg>
      ) : null}
      <Legend marks={marks} visitors={visitors} />
      <Numbers days={days} marks={marks} range={range} />
    </div>
  );
}
