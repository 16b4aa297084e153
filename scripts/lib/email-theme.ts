/**
 * The e-mails' look, from the site's: the @theme colours of src/styles/global.css (light, and a dark palette of the
 * same family for clients that honour prefers-color-scheme), a system font stack like Inter, the class names the
 * dark-mode rules recolour, and each block's inline styles. email-templates.tsx builds the templates with them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CSSProperties } from "react";

const ROOT = join(import.meta.dirname, "../..");

/** The @theme colours of src/styles/global.css, by name (`ink-900`, `brand-700`, …). */
export function themeColours(css = readFileSync(join(ROOT, "src/styles/global.css"), "utf8")): Record<string, string> {
  const theme = /@theme\s*\{([\s\S]*?)\n\}/.exec(css)?.[1] ?? "";
  return Object.fromEntries(
    [...theme.matchAll(/--color-([a-z]+-\d+):\s*(#[0-9a-f]{3,8});/gi)].map((m) => [m[1], m[2]]),
  );
}

export function palette() {
  const theme = themeColours();
  const colour = (name: string) => {
    const value = theme[name];
    if (!value) throw new Error(`src/styles/global.css has no --color-${name} in its @theme`);
    return value.toLowerCase();
  };
  return {
    page: colour("ink-50"),
    card: "#ffffff",
    border: colour("ink-100"),
    text: colour("ink-900"),
    muted: colour("ink-600"),
    rule: colour("ink-200"),
    brand: colour("brand-700"),
    onBrand: "#ffffff",
    dark: {
      page: colour("ink-950"),
      card: colour("ink-900"),
      border: colour("ink-800"),
      text: colour("ink-100"),
      muted: colour("ink-300"),
      rule: colour("ink-700"),
      brand: colour("brand-300"),
    },
  };
}
export type Palette = ReturnType<typeof palette>;

/** Inter where the reader has it, else the system's own sans-serif: no web font. */
export const FONT =
  "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** Class names the dark-mode rules below recolour (inline styles are the light colours, for every client). */
export const CLASS = {
  page: "nx-page",
  card: "nx-card",
  text: "nx-text",
  muted: "nx-muted",
  link: "nx-link",
  quiet: "nx-quiet",
  rule: "nx-rule",
} as const;

export const darkCss = (c: Palette) => `:root{color-scheme:light dark;supported-color-schemes:light dark}
@media (prefers-color-scheme:dark){
.${CLASS.page},.${CLASS.page}>table>tbody>tr>td{background-color:${c.dark.page}!important}
.${CLASS.card}{background-color:${c.dark.card}!important;border-color:${c.dark.border}!important}
.${CLASS.text}{color:${c.dark.text}!important}
.${CLASS.muted},.${CLASS.quiet}{color:${c.dark.muted}!important}
.${CLASS.link}{color:${c.dark.brand}!important}
.${CLASS.rule}{border-top-color:${c.dark.rule}!important}
}`;

export const styles = (c: Palette) => {
  // A long address in a team's update breaks rather than widening the e-mail past a phone's screen.
  const wrap: CSSProperties = { overflowWrap: "break-word", wordBreak: "break-word" };
  const paragraph: CSSProperties = { fontSize: "16px", lineHeight: "24px", color: c.text, margin: "0 0 16px", ...wrap };
  const small: CSSProperties = { fontSize: "14px", lineHeight: "21px", color: c.muted, margin: "0 0 16px", ...wrap };
  return {
    paragraph,
    small,
    link: { color: c.brand, fontWeight: 600, textDecorationLine: "underline" } satisfies CSSProperties,
    quiet: { color: c.muted, textDecorationLine: "underline" } satisfies CSSProperties,
  };
};
