import { z } from "astro/zod";

/** docs/brief.md fixes the FAQ at exactly ten questions. */
export const FAQ_COUNT = 10;

/** docs/brief.md fixes the thirteen terms sections and their order. */
export const TERMS_ORDER = [
  "acceptance",
  "service-description",
  "early-access",
  "privacy-and-data-ownership",
  "user-responsibilities",
  "intellectual-property",
  "shared-knowledge-networks",
  "ai-and-machine-learning",
  "service-modifications",
  "limitation-of-liability",
  "termination",
  "changes-to-terms",
  "contact",
] as const;

export const faqSchema = z.object({
  order: z.number().int().positive(),
  question: z.string().min(5).endsWith("?"),
  answer: z.string().min(20),
});

export const termsSchema = z.object({
  title: z.string().min(3),
});

/** A section of a marketing page: a heading, optional lead, optional cards; the body is Markdown. */
export const sectionSchema = z.object({
  order: z.number().int().nonnegative(),
  anchor: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/)
    .optional(),
  eyebrow: z.string().optional(),
  title: z.string().min(3),
  tone: z.enum(["plain", "tinted", "dark"]).default("plain"),
  cards: z.array(z.object({ title: z.string(), body: z.string() })).default([]),
  cta: z.boolean().default(false),
});

export type FaqEntry = z.infer<typeof faqSchema> & { id: string };

/** Sorts terms entries into docs/brief.md's order and fails loudly if one is missing or extra. */
export function orderTerms<T extends { id: string }>(entries: readonly T[]): T[] {
  const byId = new Map(entries.map((entry) => [entry.id.replace(/^\d+-/, ""), entry]));
  const extra = [...byId.keys()].filter((id) => !(TERMS_ORDER as readonly string[]).includes(id));
  const missing = TERMS_ORDER.filter((id) => !byId.has(id));
  if (extra.length > 0 || missing.length > 0 || entries.length !== TERMS_ORDER.length) {
    throw new Error(
      `Terms sections must be exactly ${TERMS_ORDER.join(", ")}; missing: [${missing.join(", ")}], unexpected: [${extra.join(", ")}]`,
    );
  }
  return TERMS_ORDER.map((id) => byId.get(id) as T);
}

/** Fails the build if the FAQ does not hold exactly FAQ_COUNT entries. */
export function checkFaq<T>(entries: readonly T[]): readonly T[] {
  if (entries.length !== FAQ_COUNT) {
    throw new Error(`The FAQ must hold exactly ${FAQ_COUNT} entries; found ${entries.length}.`);
  }
  return entries;
}
