/**
 * Builds the functions as Netlify's build does: `@netlify/config` reads netlify.toml, and
 * `@netlify/zip-it-and-ship-it` zips each function with the settings translated the way Netlify's CLI and
 * build translate them. Used by `npm run budgets` (zip sizes) and by the tests that import the result.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { resolveConfig } from "@netlify/config";
import { zipFunctions } from "@netlify/zip-it-and-ship-it";
import { unzipSync } from "fflate";

/** netlify.toml's `[functions]` keys, as @netlify/config returns them. */
interface NetlifyFunctionConfig {
  external_node_modules?: string[];
  included_files?: string[];
  ignored_node_modules?: string[];
  node_bundler?: string;
}

export interface BuiltFunction {
  name: string;
  path: string;
  size: number;
}

export async function bundleFunctions(out: string, format: "zip" | "none" = "zip"): Promise<BuiltFunction[]> {
  const { config, buildDir } = await resolveConfig({ cwd: process.cwd(), offline: true, context: "production" });
  const functionsConfig = Object.fromEntries(
    Object.entries((config.functions ?? {}) as Record<string, NetlifyFunctionConfig>).map(([pattern, value]) => [
      pattern,
      {
        externalNodeModules: value.external_node_modules,
        includedFiles: value.included_files,
        includedFilesBasePath: buildDir,
        ignoredNodeModules: value.ignored_node_modules,
        nodeBundler: value.node_bundler === "esbuild" ? "esbuild_zisi" : value.node_bundler,
        processDynamicNodeImports: true,
        zipGo: true,
      },
    ]),
  );
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const results = await zipFunctions(config.functionsDirectory ?? "netlify/functions", out, {
    archiveFormat: format,
    basePath: buildDir,
    repositoryRoot: buildDir,
    config: functionsConfig as Parameters<typeof zipFunctions>[2] extends { config?: infer C } ? C : never,
  });
  return results.map((result) => ({ name: result.name, path: result.path, size: result.size ?? 0 }));
}

/**
 * Unpacks a function's zip into `dir` as Lambda would, and returns the path of its handler module
 * (`netlify/functions/<name>.mjs`). Outside the project, nothing resolves to the project's node_modules.
 */
export function unpackFunction(zip: string, name: string, dir: string): string {
  for (const [path, bytes] of Object.entries(unzipSync(readFileSync(zip)))) {
    if (path.endsWith("/")) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  return join(dir, "netlify", "functions", `${name}.mjs`);
}
