import { expect, expectNoAxeViolations, test } from "./fixtures";

// The public pages, the 404 among them (any unknown path).
const PUBLIC = ["/", "/product", "/terms-of-service", "/join", "/this-page-does-not-exist"];

interface Sent {
  requestId: string;
  type?: string;
  request: { url: string; initialPriority: string };
  initiator: { type: string; url?: string; stack?: { callFrames: Array<{ url: string }> } };
}

/**
 * Issue 54, point 13: Lighthouse (mobile preset) counts a script requested at high priority as holding up the
 * first paint, a round trip each on the network it simulates. A page's own scripts are one file, requested by
 * the parser at low priority, importing nothing; the islands load later, on intent or when scrolled to.
 */
test("a public page's own scripts are one file, requested at low priority, importing nothing", async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  for (const path of PUBLIC) {
    const sent: Sent[] = [];
    const listener = (event: Sent) => sent.push(event);
    cdp.on("Network.requestWillBeSent", listener);
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    cdp.off("Network.requestWillBeSent", listener);
    const pageScripts = sent.filter((event) => event.type === "Script" && event.initiator.type === "parser");
    const urls = new Set(pageScripts.map((event) => event.request.url));
    const imported = sent.filter(
      (event) =>
        event.type === "Script" &&
        [event.initiator.url, ...(event.initiator.stack?.callFrames ?? []).map((frame) => frame.url)].some(
          (url) => url !== undefined && urls.has(url),
        ),
    );
    const shown = (events: Sent[]) =>
      events.map((event) => [
        new URL(event.request.url).pathname.replace(/\.[\w-]{8}\.js$/, ".[hash].js"),
        event.request.initialPriority,
      ]);
    expect(shown(pageScripts), path).toEqual([["/_astro/page.[hash].js", "Low"]]);
    expect(shown(imported), path).toEqual([]);
    await expectNoAxeViolations(page);
    const width = page.viewportSize()?.width ?? 0;
    const name = path === "/" ? "home" : path.slice(1);
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
});
