import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";

/** Registers `client:intent` (src/lib/directives/intent.ts) with Astro's `addClientDirective`. */
export function intentDirective(): AstroIntegration {
  return {
    name: "client-intent",
    hooks: {
      "astro:config:setup": ({ addClientDirective }) => {
        addClientDirective({
          name: "intent",
          entrypoint: fileURLToPath(new URL("../../src/lib/directives/intent.ts", import.meta.url)),
        });
      },
    },
  };
}
