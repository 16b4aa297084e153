/**
 * The parts of zod/mini the function's validator uses, imported by path rather than by package name. Why:
 * Netlify bundles a Functions v2 function with esbuild's `packages: "external"` and then copies every file each
 * external package reaches, so "zod/mini" shipped all of zod (its JSON Schema tools and 50 locales: 218 KB of
 * the sign-up function's zip). A path is bundled like our own code, and only these functions come along (about
 * 8 KB zipped). The same zod, the same version, from the project's node_modules (a test checks the path).
 */
export {
  array,
  email,
  object,
  optional,
  overwrite,
  pipe,
  refine,
  string,
  transform,
  trim,
} from "../../../node_modules/zod/v4/mini/index.js";
