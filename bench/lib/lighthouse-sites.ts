/**
 * What `npm run bench -- lighthouse` measures beside this site: the minimal page (the floor a first paint is
 * judged against), the reference sites of ../shared/anchors and, with `--before`, another build of this site.
 * Each folder is served on loopback as a CDN would (brotli/gzip, its `_headers`; `/* /index.html 200` in its
 * `_redirects` makes it a single-page app).
 */
import { execSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, dirname, join, resolve } from "node:path";
import { createSiteHandler, loadHeaderRules } from "../../dev/local-netlify/site-server";

export interface Target {
  name: string;
  url: string;
  pages: string[];
  close: () => Promise<void>;
}

/**
 * A page with nothing but what every page needs (0.4 KB): no script, no style, no font. Put in the build, it is
 * served by this site's own server with this site's headers, so what our pages take beyond it is theirs alone.
 */
export const MINIMAL_PATH = "/bench-minimal";
export const MINIMAL_NAME = "minimal page";
const MINIMAL_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Minimal page</title>
<meta name="description" content="The floor a first paint is measured against.">
</head>
<body>
<main>
<h1>Minimal page</h1>
<p>A heading and a paragraph, served the way every page of this site is.</p>
</main>
</body>
</html>
`;

/** Writes the minimal page into the build folder; the returned function removes it. */
export function addMinimalPage(publish: string): () => void {
  const file = join(publish, `${MINIMAL_PATH.slice(1)}.html`);
  writeFileSync(file, MINIMAL_HTML);
  return () => rmSync(file, { force: true });
}

/** Serves a built folder on loopback as a CDN would. */
async function serveFolder(
  folder: string,
  config = join(folder, "netlify.toml"),
): Promise<{ url: string; spa: boolean; close: () => Promise<void> }> {
  const publish = resolve(folder);
  const redirects = existsSync(join(publish, "_redirects")) ? readFileSync(join(publish, "_redirects"), "utf8") : "";
  const spa = /^\/\*\s+\/index\.html\s+200\b/m.test(redirects);
  const handler = createSiteHandler({
    publish,
    headerRules: await loadHeaderRules(resolve(config), publish),
    ...(spa ? { notFound: { path: "/index.html", status: 200 } } : {}),
  });
  const server: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spa,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** A reference site (folder or URL), measured at its home page and at /product where it has one. */
export async function compareTarget(spec: string): Promise<Target> {
  const served = /^https?:\/\//.test(spec)
    ? { url: spec.replace(/\/$/, ""), close: async () => {} }
    : await serveFolder(spec);
  const pages = ["/"];
  if ((await fetch(`${served.url}/product`)).status === 200) pages.push("/product");
  return { name: /^https?:/.test(spec) ? new URL(spec).host : basename(resolve(spec)), ...served, pages };
}

/**
 * Another build of this site (`--before <dist folder>`), measured at the same static pages as this one, so a
 * change is measured before and after in one run, with this checkout's netlify.toml headers. /join is its built
 * file here (a function fills in the form's referring site on ours).
 */
export async function beforeTarget(folder: string, pages: string[]): Promise<Target> {
  const served = await serveFolder(folder, "netlify.toml");
  return { name: "before", ...served, pages };
}

/**
 * The reference sites' folders: ANCHORS_DIR, else `shared/anchors` beside the main checkout (../shared/anchors from
 * it; a worktree finds it through the repository it shares). Empty when there is none.
 */
export function anchorFolders(): string[] {
  const common = execSync("git rev-parse --path-format=absolute --git-common-dir", { encoding: "utf8" }).trim();
  const candidates = [
    process.env["ANCHORS_DIR"],
    "../shared/anchors",
    join(dirname(dirname(common)), "shared/anchors"),
  ];
  const dir = candidates.find((c): c is string => !!c && existsSync(c));
  if (!dir) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "index.html")))
    .map((entry) => join(dir, entry.name));
}
