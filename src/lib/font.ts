/** The site's one web font, self-hosted and subset at build (src/integrations/font-subset.ts). */
export const FONT = {
  family: "Inter Variable",
  url: "/fonts/inter-latin-var.woff2",
  weight: "400 700",
} as const;
