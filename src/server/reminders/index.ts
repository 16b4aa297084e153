/** Reminders, for the scheduled function, the CLI and the console: one per person, never two. */
export { type ReminderReport, remindersDue, sendReminders } from "./run";
export { createReminderStore } from "./store";
