declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate on intent toward the controls matching this selector (src/lib/directives/intent.ts). */
    "client:intent"?: string;
  }
}

export {};
