import { describe, expect, it } from "vitest";
import { pruneScriptHashes } from "../../src/integrations/csp-per-page";

// sha256 of the script texts "a()" and "b()", base64 (computed once with Node's crypto, kept literal here).
const A = "'sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4='";
const B = "'sha256-cf242PFc/kb7xD0Qzhsmd9vvRkc+cWFmbi+k+YvtdKc='";
const page = (policy: string, body: string) =>
  `<html><head><meta http-equiv="content-security-policy" content="${policy}"></head><body>${body}</body></html>`;
const policyOf = (html: string) => /content="([^"]*)"/.exec(html)?.[1];

describe("each page's CSP lists only its own inline scripts", () => {
  it.each([
    [
      "keeps the hash of a script the page carries, drops another page's",
      `<script>a()</script>`,
      ` script-src 'self' ${A}`,
    ],
    [
      "keeps both when both are here",
      `<script>a()</script><script type="module">b()</script>`,
      ` script-src 'self' ${A} ${B}`,
    ],
    ["a script with src needs no hash", `<script src="/x.js"></script>`, " script-src 'self'"],
    ["a script whose text differs by a byte is not matched", `<script>a() </script>`, " script-src 'self'"],
  ])("%s", (_, body, scriptSrc) => {
    const html = page(`default-src 'self'; script-src 'self' ${A} ${B}; style-src 'self' ${B}`, body);
    expect(policyOf(pruneScriptHashes(html))).toBe(`default-src 'self';${scriptSrc}; style-src 'self' ${B}`);
  });

  it("leaves a page without a CSP as it is", () => {
    const html = "<html><body><script>a()</script></body></html>";
    expect(pruneScriptHashes(html)).toBe(html);
  });
});
