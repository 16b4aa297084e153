/**
 * How the console's text breaks, and what a control held back looks like (appended to styles.ts's stylesheet).
 * Ordinary words never break inside themselves (overflow-wrap only as a last resort, for a word wider than its
 * whole line); an address or an identifier (`Ident`, parts.tsx) stays on one line, cut with an ellipsis when it
 * must be, whole in its title. On a phone a table of cards is as wide as its card, whatever its identifiers' length
 * (fixed layout), and a cell's box may be narrower than its longest identifier, which then is cut.
 */
export const TEXT_RULES = `
.ident{display:inline-block;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
.title-row h1 .ident{display:block}
dl.pairs dd{min-width:0}
@media (max-width:640px){table.cards{table-layout:fixed}table.cards td>*{min-width:0}}
button:disabled{opacity:.55;cursor:not-allowed}button.quiet:disabled:hover{background:#fff}
.held{display:block;font-size:14px;margin:4px 0 0}
`;
