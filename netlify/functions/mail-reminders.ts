/**
 * Every ten minutes: one reminder to each pending sign-up due one to confirm, and to each invited person whose
 * unused invitation expires within INVITE_REMINDER_DAYS (src/server/reminders/), within 20 of a scheduled
 * function's 30 s; whoever is left goes in the next run. Off with both settings at 0, or mail off.
 */
import type { Config, Context } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { ACTOR, audit } from "../../src/server/audit";
import { getConfig } from "../../src/server/config";
import { describeError, log } from "../../src/server/log";
import { mailerFor } from "../../src/server/mail/mailer";
import { sendReminders } from "../../src/server/reminders";
import { suppressedMailer } from "../../src/server/suppression";

/** The run's share of a scheduled function's 30 s: an e-mail started before it ends well within the rest. */
const RUN_MS = 20_000;

export default configured(async (_req: Request, context?: Context): Promise<Response> => {
  const deadline = Date.now() + RUN_MS;
  const config = getConfig();
  const site = config.siteUrl ?? context?.site?.url ?? null;
  const off = config.reminders.confirmReminderHours === 0 && config.reminders.inviteReminderDays === 0;
  if (!site || off || !config.mail) return new Response(null, { status: 204 });
  try {
    const store = await getStore();
    const mailer = suppressedMailer(mailerFor(config), config, async () => store);
    const report = await sendReminders({ store, config, mailer, site, deadline });
    if (report.sent > 0 || report.remaining > 0) log("info", "reminders.sent", { ...report });
    // E-mails sent by the schedule are in the audit log, as the CLI's are (a run that sends nothing is not).
    if (report.sent + report.invites > 0) {
      await audit(store.db, ACTOR.scheduled, "reminders", { sent: report.sent, invites: report.invites });
    }
    return new Response(null, { status: 204 });
  } catch (error) {
    log("error", "reminders.failed", describeError(error));
    return new Response(null, { status: 503 });
  }
});

export const config: Config = { schedule: "*/10 * * * *" };
