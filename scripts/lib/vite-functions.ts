import type { Plugin } from "vite";
import { loadFunctions } from "./functions";
import { runFunction } from "./static-server";

/** Serves netlify/functions in `astro dev`, reloading them through Vite on every change. */
export function netlifyFunctions(): Plugin {
  return {
    name: "local-netlify-functions",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = new URL(req.url ?? "/", "http://localhost");
        loadFunctions("netlify/functions", (file) => server.ssrLoadModule(file))
          .then(async (routes) => {
            const route = routes.find((r) => r.path === url.pathname);
            if (!route) return next();
            await runFunction(req, res, route.handler, url);
          })
          .catch(next);
      });
    },
  };
}
