/**
 * The version of the Terms of Service a sign-up agrees to: the first 16 hex digits of a SHA-256 over the terms'
 * files (src/content/terms/*.md, by name: each name, a line break, its bytes, a line break). Stored with each
 * sign-up as its consent record. tests/unit/terms-version.test.ts fails when the terms change and this does not,
 * so a change of terms is always a deliberate new version.
 */
export const TERMS_VERSION = "d32ad6715e8da973";
