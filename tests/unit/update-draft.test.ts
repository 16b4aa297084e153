/** What an update may be (src/server/updates/rules.ts): one rule for the console and the CLI, each refusal a sentence. */
import { describe, expect, it } from "vitest";
import { bodyHtml } from "../../src/server/updates/message";
import { checkDraft } from "../../src/server/updates/rules";

describe("a draft that cannot be sent says why", () => {
  it.each([
    ["", "Hello", "Write a subject."],
    ["   ", "Hello", "Write a subject."],
    ["Two\nlines", "Hello", "The subject must be one line: remove the line break."],
    ["Carriage\rreturn", "Hello", "The subject must be one line: remove the line break."],
    ["Line\u2028separator", "Hello", "The subject must be one line: remove the line break."],
    ["Tab\there", "Hello", "The subject cannot hold a tab or another control character: remove it."],
    ["Escape\u001b[31m", "Hello", "The subject cannot hold a tab or another control character: remove it."],
    ["News", "", "Write the update's text."],
    ["News", " \n\n\t", "Write the update's text."],
    ["News", "a".repeat(102_401), "The text is 101 KB; an update may be at most 100 KB."],
    ["News", "é".repeat(51_201), "The text is 101 KB; an update may be at most 100 KB."],
    ["x".repeat(201), "Hello", "Keep the subject within 200 characters."],
  ])("subject %j, body of %#", (subject, body, problem) => {
    expect(checkDraft(subject, body)).toEqual({ problem });
  });
});

it("a draft that can: the subject trimmed, line ends made \\n, trailing space dropped, 100 KB exactly allowed", () => {
  expect(checkDraft("  March news ", "Hi\r\n\r\nBye\r\n\n")).toEqual({
    draft: { subject: "March news", body: "Hi\n\nBye" },
  });
  expect(checkDraft("News", "a".repeat(102_400))).toMatchObject({ draft: { subject: "News" } });
});

it("the HTML part: paragraphs, line breaks, links as written, everything else escaped", () => {
  // The templates' classes, styles and target left out: what is left is the structure and the escaping.
  const bare = (html: string) => html.replace(/ (class|style|target)="[^"]*"/g, "");
  expect(bare(bodyHtml('One <b>&</b> "two"\nhttps://example.com/a?b=1&c=2.\n\nSecond'))).toBe(
    '<p>One &lt;b&gt;&amp;&lt;/b&gt; &quot;two&quot;<br><a href="https://example.com/a?b=1&amp;c=2">https://example.com/a?b=1&amp;c=2</a>.</p>\n<p>Second</p>',
  );
});
