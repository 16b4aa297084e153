// @ts-check

import { createHash } from "node:crypto";
import react from "@astrojs/react";
import sitemap from "@astrojs/sitemap";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";
import { netlifyFunctions } from "./dev/astro-functions.ts";
import { cspPerPage } from "./src/integrations/csp-per-page.ts";
import { fontSubset } from "./src/integrations/font-subset.ts";
import { intentDirective } from "./src/integrations/intent-directive.ts";
import { pageScripts } from "./src/integrations/page-scripts.ts";
import { questionsCheck } from "./src/integrations/questions-check.ts";
import { stableIslandIds } from "./src/integrations/stable-island-ids.ts";
import { SITE } from "./src/site.ts";

/** A CSP hash source for an inline `style` attribute (allowed by 'unsafe-hashes', value by value). */
const styleAttributeHash = (/** @type {string} */ value) =>
  /** @type {`sha256-${string}`} */ (`sha256-${createHash("sha256").update(value).digest("base64")}`);

/** The only style attributes in the server-rendered HTML: Headless UI's hidden panels and its hidden span. */
const STYLE_ATTRIBUTES = [
  "display:none",
  "position:fixed;top:1px;left:1px;width:1px;height:0;padding:0;margin:-1px;overflow:hidden;clip:rect(0, 0, 0, 0);white-space:nowrap;border-width:0;display:none",
];

export default defineConfig({
  site: SITE.url,
  output: "static",
  // No code blocks on the site; Shiki's inline styles would need 'unsafe-inline' under the CSP.
  markdown: { syntaxHighlight: false },
  trailingSlash: "never",
  // Styles inline in each page (hashed in its CSP): no render-blocking stylesheet request.
  build: { format: "file", inlineStylesheets: "always" },
  integrations: [
    questionsCheck(),
    react(),
    intentDirective(),
    sitemap({
      filter: (page) => !page.includes("/404") && !page.includes("/join/thanks") && !page.includes("/waitlist/"),
    }),
    fontSubset({ file: "fonts/inter-latin-var.woff2", source: "public/fonts/inter-latin-var.woff2" }),
    pageScripts(),
    cspPerPage(),
    stableIslandIds(),
  ],
  // Hashes for every script and style Astro emits, in a <meta> CSP on each page: no 'unsafe-inline'.
  // cspPerPage() then keeps, on each page, only the script hashes of that page's own inline scripts.
  // frame-ancestors cannot live in a <meta>; netlify.toml sends it (and the other headers) as HTTP headers.
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'self'",
        "form-action 'self'",
        "object-src 'none'",
        "manifest-src 'self'",
      ],
      styleDirective: {
        resources: ["'self'", "'unsafe-hashes'"],
        hashes: STYLE_ATTRIBUTES.map(styleAttributeHash),
      },
    },
  },
  vite: {
    plugins: [tailwindcss(), netlifyFunctions()],
    // The pages' own scripts as files, not inline: 1.2 KB (brotli) less in every page's first round trip (/product
    // was within 9 bytes of it), cached across pages, and no script hash for them in the CSP. Module scripts run
    // after parsing either way; pageScripts() then makes a page's scripts one file, requested at low priority.
    build: { assetsInlineLimit: 0 },
  },
});
