/**
 * Which pages count their visits, as data the pages, their script and the function share (src/server/visits/).
 * The public pages only: the status page, the e-mails' pages and the console are private and never counted. The
 * 404 page counts under "404", whatever the address that was not found (an address is not a page of ours).
 */
export const COUNTED_PAGES = ["/", "/product", "/terms-of-service", "/join", "404"] as const;
export type CountedPage = (typeof COUNTED_PAGES)[number];

/** Where a page reports its view: a POST from its script, a GET from its `<noscript>` pixel. */
export const VISIT_PATH = "/api/visit";

/** The pixel's query parameter naming the page (the page's own address arrives as the request's Referer). */
export const VISIT_PAGE_PARAM = "page";

/** The counted page a built page stands for (its path as Astro builds it, `/index.html`, `/404`), or null. */
export function countedPage(pathname: string): CountedPage | null {
  const path = pathname.replace(/(index)?\.html$/, "").replace(/(.)\/$/, "$1") || "/";
  if (path === "/404") return "404";
  return (COUNTED_PAGES as readonly string[]).includes(path) ? (path as CountedPage) : null;
}
