/** The reminders' settings, as config/index.ts reads them: src/server/reminders/ sends them. */
import { type SettingsReader, settingsReader } from "./parse";

export interface ReminderSettings {
  /** Hours after sign-up a pending person gets one reminder (CONFIRM_REMINDER_HOURS, default 24; 0: off). */
  confirmReminderHours: number;
  /** Days before an unused invite expires its person gets one reminder (INVITE_REMINDER_DAYS, default 3; 0: off). */
  inviteReminderDays: number;
}

export function remindersConfig(
  env: Record<string, string | undefined>,
  read: SettingsReader = settingsReader(env),
): { reminders: ReminderSettings } {
  return {
    reminders: {
      confirmReminderHours: read.whole("CONFIRM_REMINDER_HOURS", 24, 0),
      inviteReminderDays: read.whole("INVITE_REMINDER_DAYS", 3, 0),
    },
  };
}
