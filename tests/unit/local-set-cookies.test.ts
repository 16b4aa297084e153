/**
 * A function's answer with two Set-Cookie headers reaches the browser with both, on the local host as on Netlify (the
 * console's sign-in sets its session and, beside it, the cookie that keeps the team out of the visits' count).
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSiteHandler } from "../../dev/local-netlify/site-server";

let server: Server;
let port = 0;
beforeAll(async () => {
  const handler = () => {
    const response = new Response(null, { status: 303, headers: { Location: "/admin" } });
    response.headers.append("Set-Cookie", "a=1; Path=/admin");
    response.headers.append("Set-Cookie", "b=2; Path=/api/visit");
    return response;
  };
  const handle = createSiteHandler({ publish: "public", headerRules: [], functions: [{ path: "/two", handler }] });
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("sends each Set-Cookie a function sets as its own header", async () => {
  const cookies = await new Promise<string[] | undefined>((resolve, reject) =>
    request({ host: "127.0.0.1", port, path: "/two" }, (res) => {
      res.resume();
      resolve(res.headers["set-cookie"]);
    })
      .on("error", reject)
      .end(),
  );
  expect(cookies).toEqual(["a=1; Path=/admin", "b=2; Path=/api/visit"]);
});
