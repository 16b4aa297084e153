/**
 * A form's one-time ticket: minted into a confirmation page (a wave, an update), sent back with its POST, and
 * kept with what that POST made (a unique column), so pressing the button twice, or the browser repeating the
 * request, makes one thing, not two. 16 random bytes as base64url: unguessable, and 22 characters a pattern can
 * check before any SQL sees them.
 */
import { randomBytes } from "node:crypto";

export const TICKET_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A new ticket for one confirmation page. */
export const newTicket = (): string => randomBytes(16).toString("base64url");

/** Whether `text` is a ticket as newTicket mints them. */
export const isTicket = (text: string | undefined): text is string => text !== undefined && TICKET_PATTERN.test(text);
