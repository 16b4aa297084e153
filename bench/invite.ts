/**
 * `npm run bench -- invite`: one wave of 1,000 invitations as the team runs it (`npm run waitlist -- invite --next
 * 1000 --yes`, a process of its own) against the PostgreSQL at TEST_POSTGRES_URL (default 127.0.0.1:5432, a
 * throw-away database) and an SMTP server on 127.0.0.1 that accepts every message. Reports the command's wall time
 * (and, beside it, a dry run's, which is the process's start-up), the e-mails the server accepted and the people
 * marked invited; to docs/performance.md.
 */
import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { writeSection } from "../scripts/lib/perf-doc";
import { createMigratedDatabase } from "../tests/support/postgres";

const PEOPLE = 1000;
const exec = promisify(execFile);

// A throw-away database with the migrations applied, as the tests make them.
const database = await createMigratedDatabase("bench_invite");

let accepted = 0;
const smtp = new SMTPServer({
  authOptional: true,
  // No reverse DNS of 127.0.0.1 per connection: offline, each lookup waits for its timeout.
  disableReverseLookup: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, _session, done) {
    stream.on("data", () => {});
    stream.on("end", () => {
      accepted++;
      done();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;

try {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(
    `INSERT INTO waitlist (name, email, status, created_at)
     SELECT 'Person ' || i, 'person' || i || '@example.com', 'confirmed', now() - make_interval(mins => ${PEOPLE} - i)
     FROM generate_series(1, ${PEOPLE}) AS i`,
  );
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    SMTP_URL: smtpUrl,
    MAIL_FROM: "Noosphere <hello@noosphere.test>",
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
  };
  const timed = async (...args: string[]) => {
    const started = performance.now();
    const { stdout } = await exec("node_modules/.bin/node", ["--import", "tsx", "scripts/waitlist.ts", ...args], {
      env,
    });
    return { seconds: (performance.now() - started) / 1000, stdout: stdout.trim() };
  };
  const dry = await timed("invite", "--next", String(PEOPLE));
  const wave = await timed("invite", "--next", String(PEOPLE), "--yes");
  const [row] = (
    await client.query<{ invited: number }>("SELECT count(*)::int AS invited FROM waitlist WHERE status = 'invited'")
  ).rows;
  await client.end();
  const invited = row?.invited ?? 0;
  const net = wave.seconds - dry.seconds;
  console.log(wave.stdout);
  const table = [
    `## Invitations (\`npm run bench -- invite\`)`,
    "",
    `One wave of ${PEOPLE} (\`npm run waitlist -- invite --next ${PEOPLE} --yes\`) against PostgreSQL on 127.0.0.1:5432`,
    "and an SMTP server on 127.0.0.1 that accepts every message; measured on " +
      `${new Date().toISOString().slice(0, 10)}.`,
    "",
    "| | |",
    "| --- | ---: |",
    `| the wave's command, wall time | ${wave.seconds.toFixed(1)} s |`,
    `| a dry run's (the process's start-up and one query) | ${dry.seconds.toFixed(1)} s |`,
    `| the wave itself (difference) | ${net.toFixed(1)} s, ${Math.round(invited / net)} invitations/s |`,
    `| e-mails accepted by the SMTP server | ${accepted} |`,
    `| people marked invited | ${invited} |`,
  ].join("\n");
  console.log(table);
  writeSection("invite", table);
  if (accepted !== PEOPLE || invited !== PEOPLE) process.exitCode = 1;
} finally {
  smtp.close();
  await database.drop();
}
