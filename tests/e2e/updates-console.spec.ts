/**
 * Updates as the team writes them, in a real browser at both sizes, each test against a server of its own and a
 * real SMTP server on 127.0.0.1: an admin signs in by e-mail, writes an update, previews it, sends a test to
 * themselves, then sends it, follows the send on its own page, and exactly the consenting people get it once each;
 * bad input says what is wrong and sends nothing; with nobody to reach, the preview offers no send. Axe on every
 * page of it, and the look of the Updates area and of a finished send compared with their screenshots at 375 and
 * 1280 px (tests/e2e/updates-console.spec.ts-snapshots/; `--update-snapshots` after a change of design). A
 * person's side: updates-choice.spec.ts.
 */
import { ADMIN, checkState, expectLook, mailEnv } from "./console-support";
import { ANY_VIEWPORT, expect } from "./fixtures";
import { linkTo } from "./referrals-support";
import {
  BODY,
  expectAccessible,
  expectSentPage,
  FOOTER,
  keepServerLog,
  pastUpdates,
  SUBJECT,
  seedPeople,
  serverFor,
  shootFrames,
  signInToUpdates,
  test,
  to,
} from "./updates-support";

/** People an update does not reach: never asked, said no, not confirmed. */
const NOT_REACHED: Array<[string, string, boolean | null]> = [
  ["carol@example.com", "confirmed", null],
  ["dave@example.com", "confirmed", false],
  ["grace@example.com", "pending", null],
];

test.afterEach(keepServerLog);
// A server of its own, a real SMTP server, a test send and a whole send with axe on each page, the e-mail's frames
// and the sent update's page found again: over 90 s at 1280 px on a loaded machine.
test.describe.configure({ timeout: 180_000 });

test("the console writes an update, previews it, tests it on the admin alone, and sends it once to each person who said yes", async ({
  page,
  smtp,
  ownServer,
}) => {
  const server = await serverFor(
    ownServer,
    mailEnv(smtp),
    seedPeople([["alice@example.com", "confirmed", true], ["bob@example.com", "confirmed", true], ...NOT_REACHED]),
  );
  await signInToUpdates(page, smtp, server.url, true);
  await expect(
    page.getByText(
      'To the 2 confirmed people who said yes to updates. Plain text: a blank line starts a paragraph, and links are made clickable. Every update ends with a "Stop these updates" link.',
    ),
  ).toBeVisible();
  await expect(page.getByText("No update has been sent yet.")).toBeVisible();
  await expectAccessible(page);

  // The preview: who, the e-mail as HTML (its paragraphs, line break and link), the plain-text part.
  await page.getByLabel("Subject").fill(SUBJECT);
  await page.getByLabel("Text").fill(BODY);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Preview the update" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Who gets it" }).getByRole("paragraph")).toHaveText(
    "It will reach 2 people: everyone confirmed who said yes to updates.",
  );
  await expect(page.getByText(`Subject: ${SUBJECT}`)).toBeVisible();
  // The e-mail as it arrives: the mailer's own HTML, its inline styles applied, at a phone's and a computer's width.
  for (const [where, width] of [
    ["on a phone", 360],
    ["on a computer", 640],
  ] as const) {
    const frame = page.locator(`iframe[title="The e-mail “${SUBJECT}”, ${where}"]`);
    await expect(frame).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
    expect((await frame.boundingBox())?.width).toBe(width);
    const mail = frame.contentFrame();
    await expect(mail.locator("p.nx-text").first()).toHaveText("Hello from the team!");
    await expect(mail.locator("p.nx-text").first()).toHaveCSS("color", "rgb(19, 26, 51)");
    await expect(mail.locator("p.nx-text").nth(1)).toHaveText(
      "The graph view is ready: https://noosphere.test/graph.More people get in by May.",
    );
    await expect(mail.getByRole("link", { name: "https://noosphere.test/graph" })).toHaveAttribute(
      "href",
      "https://noosphere.test/graph",
    );
    await expect(mail.getByRole("link", { name: "Stop these updates" })).toHaveAttribute(
      "href",
      `${server.url}/waitlist/unsubscribe?token=…`,
    );
    await expect(mail.getByText(FOOTER)).toBeVisible();
  }
  // The test first, then the send.
  await expect(page.getByRole("button", { name: /^Send/ })).toHaveText(["Send a test to me", "Send to 2 people…"]);
  await checkState(page, "update-preview");
  await shootFrames(page, "update-preview");
  const plainPart = page.locator("details pre");
  await expect(plainPart).toBeHidden();
  await expectAccessible(page);
  await page.getByText("The plain-text part").click();
  await expect(plainPart).toHaveText(
    `${BODY}\n\n--\n${FOOTER}\nYour place in line: ${server.url}/waitlist/status?token=…\nStop these updates: ${server.url}/waitlist/unsubscribe?token=…\n\n— Noosphere\n${server.url}\n`,
  );
  await expectAccessible(page);

  // A test goes to the signed-in admin, and nobody else.
  await page.getByRole("button", { name: "Send a test to me" }).click();
  await expect(page.getByRole("status")).toHaveText(`A test went to ${ADMIN} only.`);
  await expectAccessible(page);
  const [, testMail] = await smtp.waitFor(ADMIN, 2);
  expect(to(smtp)).toEqual([ADMIN, ADMIN]);
  expect(testMail?.subject).toBe(`[Test] ${SUBJECT}`);
  expect(testMail?.text).toBe(
    `${BODY}\n\n--\n${FOOTER}\nYour place in line: ${server.url}/waitlist/status?token=test\nStop these updates: ${server.url}/waitlist/unsubscribe?token=test\n\n— Noosphere\n${server.url}\n`,
  );

  // Sending: a confirmation, then the send's own page, which follows the run in the background to its end.
  await page.getByRole("button", { name: "Send to 2 people…" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Send the update" })).toBeVisible();
  await expect(page.getByText(`Send “${SUBJECT}” to 2 people now? This cannot be undone.`)).toBeVisible();
  await expectAccessible(page);
  const ticket = await page.locator('input[name="ticket"]').inputValue();
  await page.getByRole("button", { name: "Send now" }).click();
  // Its page: named by what it does, in the Updates area, its state a badge.
  await expect(page.getByRole("heading", { level: 1, name: /^(Sending|Sent) “Spring at Noosphere”$/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Updates", exact: true })).toHaveAttribute("aria-current", "page");
  // The page refreshes itself every 3 seconds while the run goes on, and stops once it is done: then it says it
  // finished, and when, never "Sending" nor an estimated finish.
  await expect(page.getByRole("status").last()).toHaveText(/^Finished at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/, {
    timeout: 20_000,
  });
  await expect(page.getByRole("heading", { level: 1, name: `Sent “${SUBJECT}”` })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: `Sent “${SUBJECT}”: 2 of 2 (100%)` })).toHaveAttribute(
    "value",
    "2",
  );
  await expect(page.locator("main")).not.toContainText(/Sending|Estimated finish/);
  await expectSentPage(page);
  // The frames as seen are shot apart (shootFrames): a whole-page shot leaves a frame below the fold blank.
  await expectLook(page, "update-sent.png", [
    page.locator("iframe"),
    page.locator(".job-state"),
    page.locator("dl.facts div").filter({ hasText: /^(Speed|Started\d|Finished\d)/ }),
  ]);

  // Exactly the two who said yes, once each (the page answers once the SMTP server accepted every message).
  expect(to(smtp)).toEqual(["alice@example.com", "bob@example.com", ADMIN, ADMIN]);
  for (const person of ["alice@example.com", "bob@example.com"]) {
    const [mail] = await smtp.waitFor(person);
    const unsubscribe = linkTo(mail, "/waitlist/unsubscribe");
    expect(unsubscribe).toMatch(/^http:\/\/[^/]+\/waitlist\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/);
    expect(new URL(unsubscribe).origin).toBe(server.url);
    // Their own status page, by a link derived from who they are (src/server/updates/status-token.ts).
    const status = linkTo(mail, "/waitlist/status");
    expect(status).toMatch(/^http:\/\/[^/]+\/waitlist\/status\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail?.subject).toBe(SUBJECT);
    expect(mail?.text).toBe(
      `${BODY}\n\n--\n${FOOTER}\nYour place in line: ${status}\nStop these updates: ${unsubscribe}\n\n— Noosphere\n${server.url}\n`,
    );
    expect(mail?.html).toMatch(
      /<a class="nx-link" href="https:\/\/noosphere\.test\/graph" style="[^"]*"[^>]*>https:\/\/noosphere\.test\/graph<\/a>\.<br>More people get in by May\./,
    );
    expect(mail?.rawHeaders.get("list-unsubscribe")).toBe(`List-Unsubscribe: <${unsubscribe}>`);
    expect(mail?.rawHeaders.get("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  }
  // Alice's status link opens her own page, her place in line on it (in a tab of its own: this one goes on).
  const [alice] = await smtp.waitFor("alice@example.com");
  const hers = await page.context().newPage();
  await hers.goto(linkTo(alice, "/waitlist/status"));
  await expect(hers.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
  await expect(hers.locator("header a", { hasText: "1st in line" })).toHaveCount(3);
  await hers.close();

  // The same confirmation pressed again (its ticket) finds the update made, and sends nothing new.
  const again = await page.request.post(`${server.url}/admin/updates`, {
    headers: { Origin: server.url },
    form: { action: "send", subject: SUBJECT, body: BODY, ticket },
  });
  expect(again.status()).toBe(200);
  expect(await again.text()).toContain("with this text was already sent");
  expect(to(smtp)).toEqual(["alice@example.com", "bob@example.com", ADMIN, ADMIN]);

  // The past updates: one, sent to two, none failed, nobody stopped since.
  await page.getByRole("link", { name: "Back to Updates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Updates" })).toBeVisible();
  const past = await pastUpdates(page);
  expect(past.map((row) => row.slice(1))).toEqual([
    ["Subject", "Sent", "Failed", "Unsubscribed since", "State"],
    [SUBJECT, "2", "0", "0", "Sent"],
  ]);
  expect(past[1]?.[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  // Its state as a badge; what came back for it, none of it yet.
  await expect(page.locator('td[data-label="State"] .badge')).toHaveText("Sent");
  await expect(page.getByRole("region", { name: "What came back" }).getByRole("row").last()).toHaveText(
    /Spring at Noosphere\s*0 \(0 %\)\s*0 \(0 %\)\s*0/,
  );
  await expectAccessible(page);
  await expectLook(page, "updates-area.png", [page.locator('td[data-label="Started"]')]);

  // Each past update is a link to its page: its progress, what came back, the e-mail it sent.
  await page.getByRole("link", { name: SUBJECT, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Sent “${SUBJECT}”` })).toBeVisible();
  await expectSentPage(page);
  // And from the overview.
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await page
    .getByRole("region", { name: "Sent lately" })
    .getByRole("link", { name: `Sent “${SUBJECT}”` })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: `Sent “${SUBJECT}”` })).toBeVisible();
});

test(
  "bad input in the console says what is wrong and sends nothing: an empty text, a text over 100 KB, a subject of two lines",
  ANY_VIEWPORT,
  async ({ page, smtp, ownServer }) => {
    const server = await serverFor(ownServer, mailEnv(smtp), seedPeople([["alice@example.com", "confirmed", true]]));
    await signInToUpdates(page, smtp, server.url);
    const alert = page.getByRole("alert");

    // A text of blank lines only (the field's `required` lets it through): the page says so, and keeps the subject.
    await page.getByLabel("Subject").fill(SUBJECT);
    await page.getByLabel("Text").fill("  \n\n  \n");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(alert).toHaveText("Write the update's text. Nothing was sent.");
    await expect(page.getByLabel("Subject")).toHaveValue(SUBJECT);
    await expectAccessible(page);

    // A text over 100 KB.
    await page.getByLabel("Text").fill("a".repeat(100 * 1024 + 1));
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(alert).toHaveText("The text is 101 KB; an update may be at most 100 KB. Nothing was sent.");
    await expect(page.getByLabel("Text")).toHaveValue("a".repeat(100 * 1024 + 1));
    await expectAccessible(page);

    // What only a crafted POST can send, straight to the last step (with a ticket): each refused, nothing sent.
    const ticket = "A".repeat(22);
    const crafted: Array<[Record<string, string>, string]> = [
      [{ subject: SUBJECT, body: "" }, "Write the update's text. Nothing was sent."],
      [{ subject: "", body: BODY }, "Write a subject. Nothing was sent."],
      [
        { subject: "Spring\r\nBcc: everyone@example.com", body: BODY },
        "The subject must be one line: remove the line break. Nothing was sent.",
      ],
      [
        { subject: SUBJECT, body: "é".repeat(51_201) },
        "The text is 101 KB; an update may be at most 100 KB. Nothing was sent.",
      ],
      // Pasted far past the limit (2.4 MB as the form sends it): still the rule's own message, not a refusal.
      [
        { subject: SUBJECT, body: "é".repeat(400_000) },
        "The text is 782 KB; an update may be at most 100 KB. Nothing was sent.",
      ],
    ];
    for (const [fields, said] of crafted) {
      for (const action of ["preview", "test", "confirm", "send"]) {
        const response = await page.request.post(`${server.url}/admin/updates`, {
          headers: { Origin: server.url },
          form: { action, ticket, ...fields },
        });
        expect(response.status(), `${action} ${JSON.stringify(fields.subject)}`).toBe(400);
        expect(await response.text()).toContain(`<p class="error" role="alert">${said.replaceAll("'", "&#x27;")}</p>`);
      }
    }

    // Nothing went out, and no update was recorded.
    expect(to(smtp)).toEqual([ADMIN]);
    await page.reload();
    await expect(page.getByText("No update has been sent yet.")).toBeVisible();
  },
);

test(
  "with nobody who said yes, the preview says nobody would receive it and offers no send",
  ANY_VIEWPORT,
  async ({ page, smtp, ownServer }) => {
    const server = await serverFor(ownServer, mailEnv(smtp), seedPeople(NOT_REACHED));
    await signInToUpdates(page, smtp, server.url);
    await page.getByLabel("Subject").fill(SUBJECT);
    // The most an update may be: exactly 100 KB.
    await page.getByLabel("Text").fill(`${"abcd ".repeat(20_479)}abcde`);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Preview the update" })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText(
      "Nobody would receive this update: no confirmed person on the list has said yes to updates yet.",
    );
    await expect(page.getByRole("button", { name: /^Send to/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Send a test to me" })).toBeVisible();
    await expectAccessible(page);
    // Asked for the confirmation anyway (a crafted POST): the same answer, nothing sent.
    const response = await page.request.post(`${server.url}/admin/updates`, {
      headers: { Origin: server.url },
      form: { action: "confirm", subject: SUBJECT, body: BODY },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain(
      '<p class="error" role="alert">Nobody would receive this update: no confirmed person on the list has said yes to updates yet. Nothing was sent.</p>',
    );
    expect(to(smtp)).toEqual([ADMIN]);
  },
);
