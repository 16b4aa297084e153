/**
 * The People page's rules (people.tsx, people-parts.tsx, people-table.tsx, people-bulk.tsx), part of the console's
 * one stylesheet (styles.ts): the search, then the filters behind "Filters" (shown open from 641 px where the
 * browser can, by ::details-content; elsewhere the disclosure stays), their chips, the bulk actions, and the list:
 * a table with a checkbox per row (a 44 px target), which on a phone is two lines a person, each cut with an
 * ellipsis rather than wrapped, so a page of 25 reads in about two screens.
 */
export const PEOPLE_RULES = `
.people-find .find-line{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end;margin:0 0 8px}
.people-find .find-line>div{flex:1 1 0;min-width:0}
details.filters>summary{display:inline-flex;align-items:center;min-height:44px;font-weight:600;color:var(--color-brand-700)}
details.filters[open]>summary{margin:0 0 8px}
@media (min-width:641px){@supports selector(::details-content){
details.filters>summary{display:none}details.filters::details-content{content-visibility:visible}details.filters{margin-top:8px}
}}
.filter-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,200px),1fr));gap:12px;margin:0 0 16px}
.filter-grid select{width:100%}
ul.chips{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 8px;padding:0;list-style:none}
ul.chips a{display:inline-flex;align-items:center;gap:6px;min-height:44px;padding:4px 14px;border-radius:999px;border:1px solid var(--color-brand-300);background:var(--color-brand-100);color:var(--color-brand-700);text-decoration:none;font-size:14px;font-weight:500;overflow-wrap:anywhere}
ul.chips a:hover{border-color:var(--color-brand-700)}
.bulk{display:flex;flex-wrap:wrap;gap:8px 12px;align-items:center;margin:0 0 8px}.bulk a{display:inline-flex;align-items:center;min-height:44px}
table.people th.pick,table.people td.pick{width:48px;padding:0}
label.pick{display:flex;align-items:center;justify-content:center;min-width:44px;min-height:44px;margin:0;cursor:pointer}
table.people td.who a{font-weight:600}table.people td.who .note{display:block;font-size:13px}
table.people .on-phone{display:none}
ul.chosen{list-style:none;margin:0 0 16px;padding:0}ul.chosen li{padding:8px 0;border-bottom:1px solid var(--color-ink-100);overflow-wrap:anywhere}
ul.chosen .why{display:block;font-size:14px;color:#93370d}
@media (max-width:640px){
.filter-grid{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}
table.people,table.people tbody{display:block}
table.people tbody tr{display:flex;flex-wrap:wrap;align-items:center;gap:0 8px;position:relative;min-height:57px;padding:6px 0 6px 48px}
table.people tbody tr::before{content:"";order:1;flex-basis:100%}
table.people td{padding:0;line-height:22px}table.people td::before{content:none}
table.people td.pick{position:absolute;left:0;top:6px;width:auto}
table.people td.who,table.people td.src{display:block;flex:1 1 0;min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
table.people td.who .note{display:inline;margin-left:6px}
table.people td.state{display:block;flex:none}
.bulk button{padding:8px 14px}
table.people td.at,table.people td.src,table.people td.n{order:2;font-size:13px;color:var(--color-ink-700)}
table.people td.at,table.people td.n{display:block;flex:none}
table.people td.ref{display:none}
table.people .on-phone{display:inline}
}
`;
