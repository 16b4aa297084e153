/** Stops `npm test` with one clear line when no Chromium can run the browser tests. */
import { CHROMIUM_HINT, findChromium } from "./lib/chromium";

if (!(await findChromium("headless-shell"))) {
  console.error(CHROMIUM_HINT);
  process.exit(1);
}
