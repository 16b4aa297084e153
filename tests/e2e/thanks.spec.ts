/**
 * /join/thanks#confirmation-sent, where /join's form lands without JavaScript (and the address people share): it
 * opens at its top, its heading in view under the sticky header, with the line about the confirmation link shown by
 * CSS alone; without the fragment, that line is hidden. At 375 and 1280 px, with and without JavaScript.
 */
import { expect, expectNoAxeViolations, test } from "./fixtures";

for (const javaScriptEnabled of [true, false]) {
  test(`/join/thanks#confirmation-sent opens at its top, heading in view (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
    page,
  }, testInfo) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: page.viewportSize() });
    const visitor = await context.newPage();
    await visitor.goto("/join/thanks#confirmation-sent");
    const heading = visitor.getByRole("heading", { level: 1, name: "Thank you for signing up!" });
    await expect(heading).toBeInViewport();
    await expect(visitor.getByText("We've sent a confirmation link to your e-mail address.")).toBeVisible();
    expect(await visitor.evaluate(() => window.scrollY)).toBe(0);
    // Not beneath the sticky header: the heading's top is below the header's bottom.
    const header = await visitor.getByRole("banner").boundingBox();
    const top = await heading.boundingBox();
    expect((top?.y ?? 0) >= (header?.y ?? 0) + (header?.height ?? 0)).toBe(true);
    await testInfo.attach(`thanks-${page.viewportSize()?.width}-${javaScriptEnabled ? "js" : "nojs"}.png`, {
      body: await visitor.screenshot(),
      contentType: "image/png",
    });
    if (javaScriptEnabled) await expectNoAxeViolations(visitor);

    await visitor.goto("/join/thanks");
    await expect(visitor.getByText("We've sent a confirmation link to your e-mail address.")).toBeHidden();
    await context.close();
  });
}
