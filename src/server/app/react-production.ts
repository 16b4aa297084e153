/**
 * React's production build for the pages a function renders (the console, a refused /join). React chooses its
 * build by NODE_ENV when first loaded, and a function's runtime may leave it unset: the development build then
 * renders the console's pages two to three times slower (docs/performance.md). Imported first by the functions
 * that render with React, so it runs before React loads; a value already set (vitest's "test") is kept.
 */
process.env["NODE_ENV"] ??= "production";
