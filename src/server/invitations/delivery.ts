/**
 * How a wave of invitations (wave.ts) reaches people, and what it makes of the SMTP server's answers: the
 * mail tool's CSV rows, refusals told apart from a server that cannot be used, and the e-mail abandoned for
 * someone who left.
 */
import { csvCell } from "../csv";
import type { Mailer } from "../mail/mailer";

/**
 * How a wave reaches people: by e-mail, or (mail off) as CSV rows `email,name,invite_url` written for the team
 * (with the ids of their people, for a console that may have to offer the file again), the people marked invited
 * once the rows are written.
 */
export type Delivery =
  | { kind: "mail"; mailer: Mailer }
  | { kind: "csv"; write: (text: string, ids: readonly number[]) => Promise<void> };

export { isRefusal, NoLongerHeld, reason } from "../mail/outcome";

/**
 * One row of the team's file for its mail tool: the address and link exactly as stored (plain RFC 4180: a
 * formula guard would turn `-bob@example.com` into a mailbox that does not exist); the name, free text the
 * person typed, keeps the guard, should the file be opened in a spreadsheet after all.
 */
export const inviteCsvRow = (email: string, name: string | null, link: string) =>
  `${csvCell(email, { exact: true })},${csvCell(name)},${csvCell(link, { exact: true })}\r\n`;
