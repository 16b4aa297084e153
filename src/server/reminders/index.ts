/** Reminders, for the scheduled function, the CLI and the console: one per person, never two. */
export { inviteReminderEmail, type ReminderReport, reminderEmail, remindersDue, sendReminders } from "./run";
export { createReminderStore } from "./store";
