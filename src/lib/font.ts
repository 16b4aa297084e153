/** The site's one web font, self-hosted and subset at build (scripts/lib/font-subset.ts). */
export const FONT = {
  family: "Inter Variable",
  url: "/fonts/inter-latin-var.woff2",
  weight: "400 700",
} as const;
