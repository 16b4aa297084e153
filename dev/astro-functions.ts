import type { Plugin } from "vite";
import { loadFunctions } from "./local-netlify/functions";
import { requestUrl, runFunction } from "./local-netlify/site-server";

/** Serves netlify/functions in `astro dev`, reloading them through Vite on every change. */
export function netlifyFunctions(): Plugin {
  return {
    name: "local-netlify-functions",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = requestUrl(
          req,
          typeof server.config.server.host === "string" ? server.config.server.host : undefined,
        );
        (async () => {
          // The functions' own module instances (Vite's), so the embedded database reaches their store.
          const [{ allowEmbeddedDatabase }, { openPgliteDb }] = await Promise.all([
            server.ssrLoadModule("/src/server/app/instance.ts"),
            server.ssrLoadModule("/src/server/db/pglite.ts"),
          ]);
          allowEmbeddedDatabase(openPgliteDb);
          const routes = await loadFunctions("netlify/functions", (file) => server.ssrLoadModule(file));
          // /join is Astro's own page here: its function serves the build (dist/join.html), which astro dev has not made.
          const route = routes.find(
            (r) =>
              r.name !== "join-page" &&
              r.path === url.pathname &&
              (!r.methods || r.methods.includes(req.method ?? "GET")),
          );
          if (!route) return next();
          await runFunction(req, res, route.handler, url);
        })().catch(next);
      });
    },
  };
}
