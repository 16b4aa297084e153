/**
 * The console's People page by answer, with questions.json replaced for this file (vi.mock of questions.ts: two
 * choice questions and a text one): a filter per choice question with each option's count, combined with the other
 * filters; "Invite everyone matching (N)" asks once with the count and the first names, then a background wave
 * mails exactly the matching people a wave may take (a real SMTP server on 127.0.0.1), and nobody twice; "Write to
 * everyone matching" carries the filter through the Updates steps to exactly those who said yes, once.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { call, form, h, openConsoleHarness, signInByLink } from "../support/console-harness";
import { seedPeople } from "../support/segments-people";

vi.mock("../../src/lib/waitlist/questions", async (original) => {
  const real = await original<typeof import("../../src/lib/waitlist/questions")>();
  const { SEGMENT_QUESTIONS } = await import("../support/questions");
  return { ...real, QUESTIONS: real.withDefaults(SEGMENT_QUESTIONS) };
});

openConsoleHarness();

let cookie = "";
const text = async (response: Response) => (await response.text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const mailed = (subject: RegExp) =>
  h.smtp.messages
    .filter((m) => subject.test(m.subject))
    .map((m) => m.to)
    .sort();

beforeAll(() => seedPeople(h.store.db), 60_000);
beforeEach(async () => {
  // The harness's config is each test's own: signed in once it is there.
  cookie ||= await signInByLink();
});

describe("People by answer", () => {
  it("offers a filter per choice question with each option's count, and combines it with the others", async () => {
    const html = await (await call("/admin/people", { cookie })).text();
    expect(html).toContain(
      '<label for="answer-team-size">How big is your team?</label><select id="answer-team-size" name="answer:team-size">' +
        '<option value="" selected="">Any</option><option value="Just me">Just me (0)</option><option value="2–10">2–10 (1)</option>' +
        '<option value="11–50">11–50 (1)</option><option value="50+">50+ (5)</option></select>',
    );
    expect(html).toContain('<option value="Roam">Roam (3)</option>');
    expect(html).not.toContain("What is your role?");
    const page = await text(await call("/admin/people?source=hn&answer%3Ateam-size=50%2B&sort=oldest", { cookie }));
    expect(page).toContain("4 people match");
    expect(page).toContain("Source: hn ×");
    expect(page).toContain("How big is your team? 50+ ×");
    expect([...new Set(page.match(/\w+@example\.com/g))]).toEqual([
      "ada@example.com",
      "dee@example.com",
      "eve@example.com",
      "gus@example.com",
    ]);
    expect(page).toContain("Invite everyone matching (1)");
    const refused = await call("/admin/people?answer%3Ateam-size=51%2B", { cookie });
    expect(refused.status).toBe(400);
  });

  it("writes to everyone matching who said yes, through every step, once", async () => {
    const compose = await text(await call("/admin/updates?answer%3Atools=Roam", { cookie }));
    expect(compose).toContain(
      "To the 2 confirmed people matching Which tools do you use? Roam who said yes to updates.",
    );
    const draft = { subject: "Roam news", body: "Hello Roam people.", "answer:tools": "Roam" };
    const preview = await text(await form("/admin/updates", { ...draft, action: "preview" }, { cookie }));
    expect(preview).toContain(
      "It will reach 2 people : everyone confirmed matching Which tools do you use? Roam who said yes to updates.",
    );
    const confirm = await form("/admin/updates", { ...draft, action: "confirm" }, { cookie });
    const confirmHtml = await confirm.text();
    expect(confirmHtml).toContain("Send “Roam news” to 2 people matching Which tools do you use? Roam now?");
    const ticket = /name="ticket" value="([^"]+)"/.exec(confirmHtml)?.[1] ?? "";
    const sent = await form("/admin/updates", { ...draft, action: "send", ticket }, { cookie });
    expect(sent.status).toBe(303);
    expect(mailed(/^Roam news$/)).toEqual(["ada@example.com", "fay@example.com"]);
    const again = await text(await form("/admin/updates", { ...draft, action: "send", ticket }, { cookie }));
    expect(again).toContain("Already sent");
    expect(mailed(/^Roam news$/)).toEqual(["ada@example.com", "fay@example.com"]);
  });

  it("invites everyone matching: asked once with the count and the first names, then exactly them, once", async () => {
    const fields = { "answer:team-size": "50+", everyone: "matching" };
    const asked = await form("/admin/invite", fields, { cookie });
    const askedHtml = await asked.text();
    const words = askedHtml.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(words).toContain("Invite 2 people?");
    expect(words).toContain(
      "Everyone matching How big is your team? 50+ who is confirmed, in no wave and not on the suppression list.",
    );
    expect(words).toContain("ada@example.com cat@example.com");
    const ticket = /name="ticket" value="([^"]+)"/.exec(askedHtml)?.[1] ?? "";
    const started = await form("/admin/invite", { ...fields, ticket, confirm: "yes" }, { cookie });
    expect(started.status).toBe(303);
    expect(started.headers.get("location")).toMatch(/^\/admin\/jobs\?kind=wave&id=\d+&done=started$/);
    const invitations = () =>
      h.smtp.messages
        .filter((m) => m.subject === "Noosphere: your early access is ready")
        .map((m) => m.to)
        .sort();
    expect(invitations()).toEqual(["ada@example.com", "cat@example.com"]);
    const twice = await form("/admin/invite", { ...fields, ticket, confirm: "yes" }, { cookie });
    expect(twice.status).toBe(303);
    expect(await text(await form("/admin/invite", fields, { cookie }))).toContain(
      "Nobody matching How big is your team? 50+ is confirmed and waiting.",
    );
    expect(invitations()).toEqual(["ada@example.com", "cat@example.com"]);
  });
});
