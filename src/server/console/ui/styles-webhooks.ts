/**
 * The webhook log's rules (webhook-rows.tsx), part of the console's one stylesheet (styles.ts): one line a delivery,
 * the receiver's answer cut with an ellipsis in the room left, "Retry now" on one line, the tries right-aligned
 * under their heading, a missed delivery marked by a red edge (its badge says it in words); the details open under
 * the event. On a phone each delivery is two lines: the event and its badge, then when, the tries, the next try and
 * "Retry now" (the answer is in the details), so 50 read in about four screens.
 */
export const WEBHOOK_RULES = `
table.log-lines td{vertical-align:middle;white-space:nowrap;overflow-wrap:normal}
table.log-lines td.what{white-space:normal;width:32%;min-width:0}
table.log-lines summary{font-weight:500;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
table.log-lines td.answer{max-width:0;width:30%;overflow:hidden;text-overflow:ellipsis;color:var(--color-ink-700)}
table.log-lines td.next.none{color:var(--color-ink-700)}
table.log-lines tr.failing td:first-child{box-shadow:inset 3px 0 var(--color-danger-700);padding-left:12px}
table.log-lines button{min-height:32px;padding:4px 12px;font-size:14px;white-space:nowrap}
table.log-lines td.what:has(details[open]){width:55%}
table.log-lines details dl{margin:8px 0 4px;font-size:14px}table.log-lines details dl div{grid-template-columns:minmax(0,1fr) minmax(0,3fr)}
table.log-lines pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}
table.log-lines code{overflow-wrap:anywhere}
table.log-lines .on-phone{display:none}
@media (max-width:640px){
table.log-lines,table.log-lines tbody{display:block}
table.log-lines thead{position:absolute;left:-999px}
table.log-lines tbody tr{display:flex;flex-wrap:wrap;align-items:center;gap:2px 12px;padding:6px 0 6px 10px;border-bottom:1px solid var(--color-ink-100)}
table.log-lines tbody tr::before{content:"";order:1;flex-basis:100%}
table.log-lines td{display:block;padding:0;border:0}
table.log-lines tr.failing td:first-child{box-shadow:none;padding-left:0}table.log-lines tr.failing{box-shadow:inset 3px 0 var(--color-danger-700)}
table.log-lines td.what{flex:1 1 0;width:auto}
table.log-lines td.state{flex:none}
table.log-lines td.when,table.log-lines td.n,table.log-lines td.next,table.log-lines td.act{order:2;font-size:14px;color:var(--color-ink-700)}
table.log-lines td.act{margin-left:auto}
table.log-lines td.answer,table.log-lines td.next.none{display:none}
table.log-lines .on-phone{display:inline}
}
`;
