// @ts-check
import react from "@astrojs/react";
import sitemap from "@astrojs/sitemap";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";
import { netlifyFunctions } from "./scripts/lib/vite-functions.ts";
import { SITE } from "./src/site.ts";

export default defineConfig({
  site: SITE.url,
  output: "static",
  trailingSlash: "never",
  build: { format: "file" },
  integrations: [react(), sitemap({ filter: (page) => !page.includes("/404") })],
  vite: {
    plugins: [tailwindcss(), netlifyFunctions()],
  },
});
