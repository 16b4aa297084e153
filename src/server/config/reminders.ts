/** The reminders' settings, as config/index.ts reads them: src/server/reminders/ sends them. */
import type { SettingsReader } from "./parse";

export interface ReminderSettings {
  /** Hours after sign-up a pending person gets one reminder (CONFIRM_REMINDER_HOURS, default 24; 0: off). */
  confirmReminderHours: number;
  /** Days before an unused invite expires its person gets one reminder (INVITE_REMINDER_DAYS, default 3; 0: off). */
  inviteReminderDays: number;
}

/** Read by config/index.ts's reader, so a value it cannot read is listed with the others. */
export const remindersConfig = (read: SettingsReader): { reminders: ReminderSettings } => ({
  reminders: {
    confirmReminderHours: read.whole("CONFIRM_REMINDER_HOURS", 24, 0),
    inviteReminderDays: read.whole("INVITE_REMINDER_DAYS", 3, 0),
  },
});
