/**
 * A refused form post (/join without JavaScript) is answered with /join itself: the form again with every value
 * sent, the message beside its control and at the top (focused as the page opens), the hidden fields kept, and
 * nothing stored. A page from a temporary folder stands in for the build, with the marks the build puts around
 * the controls (JoinForm.astro).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { withDefaults } from "../../../src/lib/waitlist/questions";
import { getStore } from "../../../src/server/app/instance";
import { getConfig } from "../../../src/server/config";
import { createWaitlistHandler } from "../../../src/server/signup/handler";
import { refusedJoinHtml } from "../../../src/server/signup/join-refusal";
import { fakeContext } from "../../support/helpers";
import { TEAM_SIZE } from "../../support/questions";
import { signupSuite } from "../../support/signup-suite";

const PAGE =
  '<!doctype html><html lang="en"><head><title>Join the Waitlist · Noosphere</title></head><body><form method="post">' +
  "<p hidden data-friend-note>A friend invited you to join.</p><!--join-fields--><p>the built controls</p><!--/join-fields-->" +
  '<input type="hidden" name="referrer" id="join-referrer"><input type="hidden" name="referral" id="join-referral">' +
  "<button>Join the Waitlist</button></form></body></html>";
const file = join(mkdtempSync(join(tmpdir(), "join-refusal-")), "join.html");
writeFileSync(file, PAGE);
const { rowCount } = signupSuite("join-refusal-");
const handler = createWaitlistHandler({ store: getStore, config: getConfig }, { joinPage: pathToFileURL(file) });
const postForm = (body: string) =>
  handler(
    new Request("http://localhost/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    }),
    fakeContext("198.51.100.77"),
  );
/** The opening tag of the element with this id. */
const tagOf = (html: string, id: string) => html.match(new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`))?.[0] ?? "";

describe("a refused form post answers with /join, filled", () => {
  it("an address the function refuses: every value kept, the message beside the address and at the top", async () => {
    const before = await rowCount();
    const response = await postForm(
      "name=Ada+%22Q%22&email=ada%40localhost&organization=%3Cb%3EACME&why=line+one%0D%0Aline+two&connect=" +
        "&termsAccepted=true&homepage=&referrer=https%3A%2F%2Fnews.example.com&referral=7k2mq9xw4p",
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain("<title>Error: Validation error · Join the Waitlist · Noosphere</title>");
    expect(html).not.toContain("the built controls");
    expect(html).toContain(
      '<div id="join-error-summary" role="alert" tabindex="-1" autofocus="" class="rounded-lg bg-danger-50 p-4 ring-1 ring-danger-700">' +
        '<p class="font-semibold text-ink-950">Validation error</p><p class="mt-1 text-ink-900">' +
        '<a href="#join-email" class="font-semibold text-brand-700 underline">Invalid email address</a></p></div>',
    );
    expect(tagOf(html, "join-name")).toContain('maxLength="100" name="name" value="Ada &quot;Q&quot;"');
    expect(tagOf(html, "join-email")).toContain(
      'aria-invalid="true" aria-describedby="join-email-error" name="email" value="ada@localhost"',
    );
    expect(html).toContain(
      '<p id="join-email-error" class="mt-1.5 text-sm font-semibold text-ink-950">Invalid email address</p>',
    );
    expect(tagOf(html, "join-organization")).toContain('value="&lt;b&gt;ACME"');
    expect(html).toMatch(/<textarea [^>]*id="join-why"[^>]*>line one\r?\nline two<\/textarea>/);
    expect(tagOf(html, "join-terms")).toContain('checked=""');
    // The honeypot is never echoed; the hidden fields keep where the visit came from.
    expect(tagOf(html, "join-homepage")).toContain('name="homepage" value=""');
    expect(html).toContain('id="join-referrer" value="https://news.example.com">');
    expect(html).toContain('id="join-referral" value="7k2mq9xw4p">');
    expect(html).toContain("<p data-friend-note>A friend invited you to join.</p>");
    expect(await rowCount()).toBe(before);
  });

  it("the terms left unticked: the box marked and unticked, the brief's words, the other values kept", async () => {
    const before = await rowCount();
    const response = await postForm("name=Bo&email=bo%40example.com");
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("<title>Error: Terms of Service · Join the Waitlist · Noosphere</title>");
    expect(html).toContain(
      '<a href="#join-terms" class="font-semibold text-brand-700 underline">Please accept the Terms of Service to continue.</a>',
    );
    const terms = tagOf(html, "join-terms");
    expect(terms).toContain('aria-invalid="true" aria-describedby="join-terms-error"');
    expect(terms).not.toContain("checked");
    expect(tagOf(html, "join-email")).toContain('value="bo@example.com"');
    expect(html).toContain('id="join-referrer">');
    expect(await rowCount()).toBe(before);
  });
});

describe("the team's questions are asked again with the answers given", () => {
  const QUESTIONS = withDefaults([
    { ...TEAM_SIZE, required: true },
    { id: "uses", label: "What for?", type: "multiple", options: ["Notes", "Code", "Research"] },
    { id: "country", label: "Where?", type: "choice", options: ["A", "B", "C", "D", "E", "F"] },
    { id: "role", label: "Your role", type: "text", required: true },
  ]);
  const sent = {
    email: "q@example.com",
    termsAccepted: true,
    answers: { "team-size": "50+", uses: ["Notes", "Research"], country: "E", role: "" },
  };
  const refusal = {
    status: 400,
    title: "Validation error",
    message: 'Please answer "Your role"',
    field: "answer:role",
  } as const;
  const html = refusedJoinHtml(PAGE, sent, refusal, QUESTIONS);

  it("each answer stands as it was sent", () => {
    expect(tagOf(html, "join-q-team-size-3")).toContain('checked="" value="50+"');
    expect(tagOf(html, "join-q-team-size-0")).not.toContain("checked");
    expect(tagOf(html, "join-q-uses-0")).toContain('name="answer:uses:0" checked="" value="Notes"');
    expect(tagOf(html, "join-q-uses-1")).not.toContain("checked");
    expect(tagOf(html, "join-q-uses-2")).toContain('checked="" value="Research"');
    expect(html).toContain('<option value="E" selected="">E</option>');
    expect(tagOf(html, "join-terms")).toContain('checked=""');
  });

  it("the message stands beside the question it names and links there from the top", () => {
    expect(tagOf(html, "join-q-role")).toContain('aria-describedby="join-q-role-error" aria-invalid="true"');
    expect(html).toContain(
      '<p id="join-q-role-error" class="mt-1.5 text-sm font-semibold text-ink-950">Please answer &quot;Your role&quot;</p>',
    );
    expect(html).toContain(
      '<a href="#join-q-role" class="font-semibold text-brand-700 underline">Please answer &quot;Your role&quot;</a>',
    );
    // A group's message leads to its first box.
    const group = refusedJoinHtml(PAGE, sent, { ...refusal, field: "answer:team-size" }, QUESTIONS);
    expect(group).toContain('<a href="#join-q-team-size-0"');
  });

  it("marks a group as ARIA allows: a choice's radio group itself, a multiple's boxes each", () => {
    const radios = refusedJoinHtml(PAGE, sent, { ...refusal, field: "answer:team-size" }, QUESTIONS);
    expect(radios).toContain(
      '<fieldset role="radiogroup" aria-describedby="join-q-team-size-error" aria-invalid="true" aria-required="true">',
    );
    const boxes = refusedJoinHtml(PAGE, sent, { ...refusal, field: "answer:uses" }, QUESTIONS);
    expect(boxes).toContain('<fieldset aria-describedby="join-q-uses-error">');
    for (const n of [0, 1, 2]) expect(tagOf(boxes, `join-q-uses-${n}`)).toContain('aria-invalid="true"');
    expect(html).toContain('<fieldset role="radiogroup" aria-required="true">');
    expect(html).toContain("<fieldset>");
  });
});
