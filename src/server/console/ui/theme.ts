/**
 * The site's design tokens as CSS custom properties, for the console: one source, src/styles/global.css's @theme
 * block (Tailwind 4 makes the same variables for the site). Written from it by tests/unit/console-theme.test.ts,
 * which fails when this copy is stale (UPDATE_DOCS=1 rewrites it); never edit it by hand.
 */
export const THEME_TOKENS: Readonly<Record<string, string>> = {
  "--font-sans":
    '"Inter Variable", "Inter Fallback", "Inter Fallback DejaVu", ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  "--color-ink-950": "#0b1020",
  "--color-ink-900": "#131a33",
  "--color-ink-800": "#1e2747",
  "--color-ink-700": "#334066",
  "--color-ink-600": "#4a5680",
  "--color-ink-500": "#5e6a92",
  "--color-ink-300": "#aab3d1",
  "--color-ink-200": "#cdd3e6",
  "--color-ink-100": "#e7eaf4",
  "--color-ink-50": "#f5f6fb",
  "--color-brand-700": "#4b2fc9",
  "--color-brand-600": "#5b3ee6",
  "--color-brand-500": "#7258f5",
  "--color-brand-300": "#b7a9ff",
  "--color-brand-100": "#ece8ff",
  "--color-danger-700": "#b42318",
  "--color-danger-50": "#fef3f2",
  "--color-success-700": "#067647",
  "--radius-card": "1.25rem",
  "--shadow-card": "0 1px 2px rgb(11 16 32 / 0.06), 0 8px 24px -12px rgb(11 16 32 / 0.18)",
};
