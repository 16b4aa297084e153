/**
 * Sign-ups per day as an SVG bar chart made on the server: no script, no style attribute (the console's CSP allows
 * neither), presentation attributes only. Named for assistive technology by its title and description; the page
 * gives the same numbers as a table.
 */
import { escapeHtml } from "../http/form-page";

const WIDTH = 720;
const HEIGHT = 200;
const TOP = 12;
const BOTTOM = 24;

export interface DayCount {
  day: string;
  count: number;
}

/** What the chart shows, in one sentence (its description, and the summary people read). */
export function describeGrowth(days: readonly DayCount[]): string {
  const total = days.reduce((sum, d) => sum + d.count, 0);
  if (days.length === 0) return "No days to show.";
  const busiest = days.reduce((best, d) => (d.count > best.count ? d : best), days[0] as DayCount);
  const span = `${days.length} days from ${days[0]?.day} to ${days.at(-1)?.day}`;
  return total === 0
    ? `No sign-ups in the ${span}.`
    : `${total} sign-up${total === 1 ? "" : "s"} in the ${span}; the most in a day: ${busiest.count}, on ${busiest.day}.`;
}

export function growthChart(days: readonly DayCount[], id: string): string {
  const most = Math.max(1, ...days.map((d) => d.count));
  const slot = WIDTH / Math.max(1, days.length);
  const plot = HEIGHT - TOP - BOTTOM;
  const bars = days
    .map((d, i) => {
      const h = d.count === 0 ? 0 : Math.max(1.5, (d.count / most) * plot);
      const x = (i * slot + slot * 0.15).toFixed(1);
      const y = (TOP + plot - h).toFixed(1);
      return `<rect x="${x}" y="${y}" width="${(slot * 0.7).toFixed(1)}" height="${h.toFixed(1)}" rx="1.5" fill="#4c2fd1"><title>${escapeHtml(`${d.day}: ${d.count}`)}</title></rect>`;
    })
    .join("");
  const baseline = TOP + plot;
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc" class="chart" preserveAspectRatio="none">
<title id="${id}-title">Sign-ups per day</title>
<desc id="${id}-desc">${escapeHtml(describeGrowth(days))}</desc>
<line x1="0" y1="${baseline}" x2="${WIDTH}" y2="${baseline}" stroke="#8b8ba7" stroke-width="1"/>
<line x1="0" y1="${TOP}" x2="${WIDTH}" y2="${TOP}" stroke="#e4e4ef" stroke-width="1"/>
<text x="2" y="${TOP - 2}" font-size="11" fill="#4a4a68">${most}</text>
${bars}
<text x="2" y="${HEIGHT - 6}" font-size="11" fill="#4a4a68">${escapeHtml(days[0]?.day ?? "")}</text>
<text x="${WIDTH - 2}" y="${HEIGHT - 6}" font-size="11" fill="#4a4a68" text-anchor="end">${escapeHtml(days.at(-1)?.day ?? "")}</text>
</svg>`;
}
