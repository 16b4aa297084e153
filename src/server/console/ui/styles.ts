/**
 * The console's one stylesheet: the site's tokens (theme.ts, from global.css) as custom properties, the site's
 * self-hosted Inter subset, its rounded buttons and cards. Sent inline and allowed by its hash in the CSP
 * (CONSOLE_CSP), so no 'unsafe-inline' and no request for a stylesheet; pages use class names only, never a style
 * attribute (the CSP refuses those).
 */
import { createHash } from "node:crypto";
import { FONT } from "../../../lib/font";
import { PEOPLE_RULES } from "./styles-people";
import { TEXT_RULES } from "./styles-text";
import { WEBHOOK_RULES } from "./styles-webhooks";
import { THEME_TOKENS } from "./theme";

const ROOT = `:root{${Object.entries(THEME_TOKENS)
  .map(([name, value]) => `${name}:${value}`)
  .join(";")}}`;

const FACE = `@font-face{font-family:"${FONT.family}";src:url(${FONT.url}) format("woff2");font-weight:${FONT.weight};font-display:swap}`;

const RULES = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 var(--font-sans);color:var(--color-ink-900);background:var(--color-ink-50);-webkit-font-smoothing:antialiased}
a{color:var(--color-brand-700);text-underline-offset:2px}
:focus-visible{outline:2px solid var(--color-brand-600);outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px 12px;border-radius:8px;z-index:1}
header.top{background:#fff;border-bottom:1px solid var(--color-ink-100)}
.bar{max-width:1120px;margin:0 auto;padding:10px 16px;display:flex;flex-wrap:wrap;gap:8px 20px;align-items:center}
.brand{font-weight:700;color:var(--color-ink-950);text-decoration:none;margin-right:auto}
.who{margin:0;color:var(--color-ink-700);font-size:14px;overflow-wrap:break-word;min-width:0;max-width:100%}
nav.areas{max-width:1120px;margin:0 auto;padding:0 8px;overflow-x:auto}
nav.areas ul{display:flex;flex-wrap:wrap;gap:0 4px;margin:0;padding:0;list-style:none}
nav.areas a{display:block;padding:10px 10px;min-height:44px;color:var(--color-ink-700);font-size:15px;font-weight:500;text-decoration:none;white-space:nowrap;border-bottom:2px solid transparent}
nav.areas a:hover{color:var(--color-ink-950)}
nav.areas a[aria-current=page]{color:var(--color-brand-700);border-bottom-color:var(--color-brand-700);font-weight:600}
@media (max-width:640px){nav.areas ul{gap:0}nav.areas a{padding:10px 6px;font-size:14px}}
main{max-width:1120px;margin:0 auto;padding:16px}
h1{font-size:26px;line-height:1.25;letter-spacing:-0.01em;margin:8px 0 16px;color:var(--color-ink-950)}
h2{font-size:18px;margin:0 0 12px;color:var(--color-ink-950)}h3{font-size:16px;margin:0 0 8px}
section{background:#fff;border:1px solid var(--color-ink-100);border-radius:var(--radius-card);box-shadow:var(--shadow-card);padding:20px;margin:0 0 16px;min-width:0}
section>:first-child{margin-top:0}
.totals,.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:8px;margin:0}
.facts{grid-template-columns:repeat(auto-fit,minmax(180px,1fr))}
.totals div,.facts div{border:1px solid var(--color-ink-100);border-radius:12px;padding:10px 14px;min-width:0}
.totals dt,.facts dt{font-size:14px;color:var(--color-ink-700)}
.totals dd{margin:0;font-size:26px;font-weight:700;font-variant-numeric:tabular-nums;overflow-wrap:break-word}
.facts dd{margin:0;overflow-wrap:break-word}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:16px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:14px;font-variant-numeric:tabular-nums}
caption{text-align:left}
th,td{text-align:left;padding:8px;border-bottom:1px solid var(--color-ink-100);vertical-align:top}
th{color:var(--color-ink-700);font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td{overflow-wrap:break-word}
form.inline{display:inline}
label{display:block;font-weight:600;margin:0 0 4px;font-size:14px}
input,select,textarea{font:inherit;color:inherit;padding:8px 12px;border:1px solid var(--color-ink-500);border-radius:10px;min-height:44px;max-width:100%;background:#fff}
input[type=checkbox]{min-height:0;width:20px;height:20px;accent-color:var(--color-brand-700)}
input[type=text],input[type=email],input[type=password],input[type=search],textarea{width:100%}
.mail-frames{display:flex;flex-wrap:wrap;gap:16px;margin:0 0 12px}.mail-frame{margin:0;min-width:0;max-width:100%}
.mail-frame figcaption{font-size:14px;color:var(--color-ink-700);margin:0 0 4px}
.frame-box{overflow-x:auto;max-width:100%;border:1px solid var(--color-ink-100);border-radius:12px}.frame-box iframe{display:block;border:0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:14px/1.5 ui-monospace,monospace}
button,.button{display:inline-flex;align-items:center;justify-content:center;font:inherit;font-size:15px;font-weight:600;min-height:44px;padding:8px 18px;border-radius:999px;border:1px solid var(--color-brand-600);background:var(--color-brand-600);color:#fff;cursor:pointer;text-decoration:none;box-shadow:0 1px 2px rgb(11 16 32 / 0.08)}
button:hover,.button:hover{background:var(--color-brand-700);border-color:var(--color-brand-700)}
button.quiet,.button.quiet{background:#fff;color:var(--color-brand-700);border-color:var(--color-ink-200)}
button.quiet:hover,.button.quiet:hover{background:var(--color-brand-100)}
button.danger,.button.danger{background:var(--color-danger-700);border-color:var(--color-danger-700)}
.row{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end}
.note{color:var(--color-ink-700)}
.notice,.error,.warn{border-left:4px solid var(--color-success-700);background:#ecfdf3;padding:10px 14px;border-radius:8px;margin:0 0 12px}
.error{border-left-color:var(--color-danger-700);background:var(--color-danger-50)}
.warn{border-left-color:#b54708;background:#fffaeb}
.badge{display:inline-block;padding:1px 10px;border-radius:999px;font-size:13px;font-weight:600;line-height:22px;white-space:nowrap;border:1px solid transparent}
.badge.pending{background:#fffaeb;color:#93370d;border-color:#fedf89}
.badge.confirmed{background:var(--color-brand-100);color:var(--color-brand-700);border-color:var(--color-brand-300)}
.badge.invited{background:#eff8ff;color:#175cd3;border-color:#b2ddff}
.badge.joined{background:#ecfdf3;color:var(--color-success-700);border-color:#abefc6}
.badge.muted{background:var(--color-ink-50);color:var(--color-ink-700);border-color:var(--color-ink-200)}
.badge.bad{background:var(--color-danger-50);color:var(--color-danger-700);border-color:#fecdca}
progress{display:block;width:100%;height:20px;margin:4px 0 12px;accent-color:var(--color-brand-600)}
nav.pages{display:flex;flex-wrap:wrap;gap:16px;margin-top:12px}
.tabs{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 8px;padding:0;list-style:none}
.tabs a{display:inline-block;padding:6px 14px;border-radius:999px;border:1px solid var(--color-ink-200);text-decoration:none;min-height:44px;line-height:30px}
.tabs a[aria-current]{background:var(--color-brand-700);border-color:var(--color-brand-700);color:#fff}
/* Long jobs, Updates, the webhook log, downloads: state badges by tone, a job's state line, the list of jobs under way */
.badge.tone-live{background:#eff8ff;color:#175cd3;border-color:#b2ddff}
.badge.tone-good{background:#ecfdf3;color:var(--color-success-700);border-color:#abefc6}
.badge.tone-warn{background:#fffaeb;color:#93370d;border-color:#fedf89}
.badge.tone-bad{background:var(--color-danger-50);color:var(--color-danger-700);border-color:#fecdca}
.badge.tone-muted{background:var(--color-ink-50);color:var(--color-ink-700);border-color:var(--color-ink-200)}
.job-state .badge,.job-line .badge{margin-right:6px}
ul.jobs{list-style:none;margin:0;padding:0}ul.jobs li{padding:8px 0;border-bottom:1px solid var(--color-ink-100)}ul.jobs li:last-child{border-bottom:0}
.job-line{margin:0}.job-line .note{margin-right:6px}
.row.actions{margin-top:16px}
ol.parts li{margin:6px 0}
td.when{font-variant-numeric:tabular-nums;white-space:nowrap}
.job-facts .facts{grid-template-columns:repeat(auto-fit,minmax(max(140px,22%),1fr))}
/* The person page, the audit log and a wave's preview (person.tsx, audit.tsx, wave-preview.tsx). */
.title-row{display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px;margin:8px 0 16px}.title-row h1{margin:0;overflow-wrap:break-word;min-width:0;max-width:100%}
ol.timeline{list-style:none;margin:0;padding:0}ol.timeline li{padding:6px 0 6px 16px;border-left:2px solid var(--color-ink-100);overflow-wrap:break-word}
ol.timeline time{font-variant-numeric:tabular-nums;color:var(--color-ink-700);margin-right:6px}
blockquote{margin:6px 0 0;padding:0 0 0 10px;border-left:3px solid var(--color-ink-200);color:var(--color-ink-700);font-size:14px}
code.note{font-size:13px}
details.raw summary{cursor:pointer;color:var(--color-ink-700);font-size:14px}details.raw code{display:block;white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}
fieldset.person-actions{display:flex;flex-wrap:wrap;gap:8px;border:0;padding:0;margin:0 0 16px;min-width:0}
.person-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,420px),1fr));gap:0 16px}
dl.pairs{margin:0}dl.pairs div{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:4px 16px;padding:8px 0;border-bottom:1px solid var(--color-ink-100)}
dl.pairs div:last-child{border-bottom:0}dl.pairs dt{color:var(--color-ink-700);font-size:14px}dl.pairs dd{margin:0;overflow-wrap:break-word}
@media (max-width:640px){dl.pairs div{grid-template-columns:1fr;gap:0}}
/* The overview (dashboard-page.tsx, dashboard-attention.tsx, chart.tsx, funnel.tsx): the calm line, the totals' links, the chart and its key, the funnel's tables */
p.calm{margin:0 0 16px;padding:10px 14px;border-radius:12px;background:#fff;border:1px solid var(--color-ink-100);color:var(--color-ink-700)}
p.calm::before{content:"";display:inline-block;width:10px;height:10px;border-radius:50%;background:var(--color-success-700);margin-right:8px}
.attention{margin:0 0 16px}
.totals dt .badge{font-size:14px}.totals dd a{color:inherit;text-decoration:none}.totals dd a:hover{text-decoration:underline}
form.find{margin-top:16px}form.find .row>div{flex:1 1 220px}
svg.chart-plot{display:block;width:100%;height:236px;overflow:visible;margin:12px 0 8px}
ul.legend{display:flex;flex-wrap:wrap;gap:6px 16px;margin:4px 0 12px;padding:0;list-style:none;font-size:14px}ul.legend li{display:inline-flex;align-items:center;gap:6px}
details>summary{cursor:pointer;min-height:24px}
.grid.wide{grid-template-columns:repeat(auto-fit,minmax(min(100%,420px),1fr))}
table.funnel caption h3{margin:4px 0 8px}table.funnel th[scope=row]{font-weight:500;color:var(--color-ink-900);overflow-wrap:anywhere}
table.funnel th.none{font-style:italic;color:var(--color-ink-700)}
td .pct{display:block;font-size:13px;color:var(--color-ink-700)}table.funnel th,table.funnel td{padding:6px}
p.funnel-all{font-weight:600}
ul.files{list-style:none;margin:0;padding:0}ul.files li{padding:8px 0;border-top:1px solid var(--color-ink-100)}
@media (max-width:640px){
main{padding:12px}section{padding:16px}
table.cards thead{position:absolute;left:-999px}
table.cards tr{display:block;border-bottom:1px solid var(--color-ink-100);padding:8px 0}
table.cards td{display:flex;gap:8px;border:0;padding:2px 0}
table.cards td::before{content:attr(data-label);font-weight:600;min-width:96px;color:var(--color-ink-700)}
table.funnel th[scope=row],table.days th[scope=row]{display:block;border:0;padding:0 0 4px;font-weight:600;color:var(--color-ink-900)}table.funnel td.n,table.days td.n{text-align:left}table.days td:empty{display:none}table.funnel.cards td{display:inline-flex;align-items:baseline;gap:4px;margin:0 14px 2px 0}table.funnel.cards td::before{min-width:0;font-weight:500}
}
`;

/** The stylesheet every console page carries. */
export const CONSOLE_CSS = `${FACE}\n${ROOT}${RULES}${PEOPLE_RULES}${WEBHOOK_RULES}${TEXT_RULES}`;

/** The console's CSP: its one stylesheet by hash, the site's font, forms to itself only, no script at all. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(CONSOLE_CSS).digest("base64")}'`,
  "font-src 'self'",
  "form-action 'self'",
  // Only the console's own pages in a frame: an update's e-mail, under a CSP of its own (update-mail.tsx).
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");
