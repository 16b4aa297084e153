/**
 * `npm run waitlist -- invite --answer …` and `update --answer …` as the team runs them, in child processes, on
 * a list whose questions.json (a copy, swapped in by tests/support/questions-hook.mjs) asks two choice questions
 * and a text one: values of one question OR'ed, questions AND'ed, --source beside them; the dry run names how many
 * and how they split by answer; the update and the wave reach exactly the matching people at a real SMTP server on
 * 127.0.0.1, and running either again reaches nobody twice. A filter naming what the file does not ask is refused.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createStore } from "../../src/server/app/store";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir } from "../support/helpers";
import { SIGNUP_QUESTIONS } from "../support/questions";
import { seedPeople } from "../support/segments-people";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { failureOf, inputFiles, mailingEnv, runCli, UPDATE_TEXT } from "../support/waitlist-cli";

const file = inputFiles("segments-cli-");
const QUESTIONS = file("questions.json", JSON.stringify(SIGNUP_QUESTIONS));
const BODY = file("body.txt", UPDATE_TEXT);
/** An update to those who answered Roam or Notion to "tools", before --yes. */
const ROAM_UPDATE = [
  "update",
  "--answer",
  "tools=Roam",
  "--answer",
  "tools=Notion",
  "--subject",
  "Roam news",
  "--body-file",
  BODY,
];

describe("invite and update by answer from the CLI", () => {
  const dataDir = migratedDataDir("segments-cli-");
  let smtp: TestSmtp | undefined;
  afterAll(() => smtp?.close());
  const env = () => ({
    ...mailingEnv(dataDir, smtp),
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
    TEST_QUESTIONS_FILE: QUESTIONS,
  });
  const cli = (...args: string[]) => runCli(env(), args, ["./tests/support/questions-hook.mjs"]);
  const lines = async (...args: string[]) => (await cli(...args)).stdout.trim().split("\n");
  const where = `in the embedded database in ${dataDir}/`;
  const received = () => (smtp?.messages ?? []).map((m) => m.to).sort();

  it("refuses a question or an option questions.json does not have, changing nothing", async () => {
    smtp = await startSmtp();
    const store = createStore(await openPgliteDb(dataDir));
    await seedPeople(store.db);
    await store.close();
    const refused = async (...args: string[]) => {
      const failure = await failureOf(cli(...args));
      return failure && [failure.code, failure.stderr.trim()];
    };
    expect(await refused("invite", "--answer", "size=50+")).toEqual([
      2,
      'waitlist: --answer: there is no question "size" in questions.json (choice questions: team-size, tools). Nothing was changed.',
    ]);
    expect(await refused("invite", "--answer", "role=CTO")).toEqual([
      2,
      'waitlist: --answer: "role" is a text question: its answers are sealed, so nobody can be chosen by them. Nothing was changed.',
    ]);
    expect(await refused("update", "--answer", "team-size=1000", "--subject", "News", "--body-file", BODY)).toEqual([
      2,
      'waitlist: --answer: "1000" is not an option of "team-size" (its options: "Just me", "2–10", "11–50", "50+"). Nothing was changed.',
    ]);
    expect(await refused("invite")).toEqual([
      2,
      "waitlist: invite needs --next with a number of people from 1 to 999999, e.g. --next 100 (or --answer ID=VALUE to invite everyone who answered so)",
    ]);
  });

  it("dry runs say how many match (OR within a question, AND across, and --source) and how they split", async () => {
    expect(await lines("invite", "--answer", "team-size=50+", "--answer", "team-size=11–50")).toEqual([
      `Dry run: would invite 3 confirmed sign-ups waiting ${where}, who answered How big is your team? 11–50 or 50+ (oldest sign-up first), by e-mail.`,
      "By answer:",
      "  How big is your team?  11–50: 1, 50+: 2",
      "  Which tools do you use?  Notion: 1, Obsidian: 2, Roam: 1",
      "Run again with --yes to invite them.",
    ]);
    expect(await lines("invite", "--answer", "team-size=50+", "--answer", "tools=Obsidian")).toEqual([
      `Dry run: would invite 1 confirmed sign-up waiting ${where}, who answered How big is your team? 50+; Which tools do you use? Obsidian (oldest sign-up first), by e-mail.`,
      "By answer:",
      "  How big is your team?  50+: 1",
      "  Which tools do you use?  Obsidian: 1",
      "Run again with --yes to invite them.",
    ]);
    expect(
      await lines(
        "invite",
        "--answer",
        "team-size=50+",
        "--answer",
        "team-size=11–50",
        "--source",
        "hn",
        "--next",
        "1",
      ),
    ).toEqual([
      `Dry run: would invite 1 confirmed sign-up waiting ${where}, who answered How big is your team? 11–50 or 50+, from source "hn" (oldest sign-up first), by e-mail.`,
      "By answer:",
      "  How big is your team?  50+: 1",
      "  Which tools do you use?  Notion: 1, Roam: 1",
      "Run again with --yes to invite them.",
    ]);
    expect(await lines(...ROAM_UPDATE)).toEqual([
      `Dry run: would send "Roam news" to 2 people who said yes to updates, who answered Which tools do you use? Notion or Roam, ${where}. Run again with --yes to send it.`,
      "By answer:",
      "  How big is your team?  2–10: 1, 50+: 1",
      "  Which tools do you use?  Notion: 1, Roam: 2",
    ]);
    expect(received()).toEqual([]);
  });

  it("an update by answer reaches exactly those who match and said yes, once", async () => {
    expect(await lines(...ROAM_UPDATE, "--yes")).toEqual([`Sent the update ${where}: 2 e-mails accepted.`]);
    expect(received()).toEqual(["ada@example.com", "fay@example.com"]);
    const again = await cli(...ROAM_UPDATE, "--yes").catch((error: { stderr: string }) => error);
    expect(again.stderr).toMatch(
      /; everyone who said yes to updates has received it: to send another, change its subject or text\. Nothing was sent\.\n$/,
    );
    // The same words to everyone who said yes are another update: the rest of the audience, not those two again.
    expect(await lines("update", "--subject", "Roam news", "--body-file", BODY)).toEqual([
      `Dry run: would send "Roam news" to 3 people who said yes to updates, ${where}. Run again with --yes to send it.`,
    ]);
    expect(await lines("update", "--subject", "Roam news", "--body-file", BODY, "--yes")).toEqual([
      `Sent the update ${where}: 3 e-mails accepted.`,
    ]);
    expect(received()).toEqual([
      "ada@example.com",
      "bob@example.com",
      "fay@example.com",
      "gus@example.com",
      "hal@example.com",
    ]);
  });

  it("a wave by answer invites everyone matching without --next, and nobody twice", async () => {
    smtp?.messages.splice(0);
    const args = ["invite", "--answer", "team-size=50+", "--answer", "team-size=11–50"];
    expect(await lines(...args, "--yes")).toEqual([
      `Wave ${where}: 3 people invited (e-mails accepted by the SMTP server).`,
    ]);
    expect(received()).toEqual(["ada@example.com", "bob@example.com", "cat@example.com"]);
    expect(await lines(...args, "--yes")).toEqual([
      `Nobody to invite: no confirmed sign-up waiting ${where}, who answered How big is your team? 11–50 or 50+.`,
    ]);
    expect(received()).toEqual(["ada@example.com", "bob@example.com", "cat@example.com"]);
  });
});
