import { defineCollection } from "astro:content";
import { file, glob } from "astro/loaders";
import { faqSchema, sectionSchema, termsSchema } from "./lib/content";

const faq = defineCollection({
  loader: file("src/content/faq.json"),
  schema: faqSchema,
});

const terms = defineCollection({
  loader: glob({ pattern: "*.md", base: "src/content/terms" }),
  schema: termsSchema,
});

const about = defineCollection({
  loader: glob({ pattern: "*.md", base: "src/content/about" }),
  schema: sectionSchema,
});

const product = defineCollection({
  loader: glob({ pattern: "*.md", base: "src/content/product" }),
  schema: sectionSchema,
});

export const collections = { faq, terms, about, product };
