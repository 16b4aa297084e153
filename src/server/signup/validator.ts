/**
 * The sign-up's rules (src/lib/waitlist/schema.ts, the island's too) with zod imported statically. Netlify's
 * bundler bundles a static import and keeps only the parts of zod/mini the rules use; a dynamic one ships the whole
 * package beside the function, its 40-odd locales included (about 210 KB of the zip). The island still loads zod
 * on its first submit: there the import stays dynamic.
 */
import { z } from "zod/mini";
import { createValidator } from "../../lib/waitlist/schema";

export const validateSignup = createValidator(z);
