/**
 * A form's one-time ticket: minted into a confirmation page, sent back with its POST. A wave's is kept with the
 * wave that POST made (a unique column), so pressing the button twice, or the browser repeating the request, makes
 * one wave, not two. An update needs no such record: its words are the update (updates/start.ts), so a repeated
 * POST finds the one it started; its ticket only says the POST came from a confirmation page. 16 random bytes as
 * base64url: unguessable, and 22 characters a pattern can check before any SQL sees them.
 */
import { randomBytes } from "node:crypto";

export const TICKET_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A new ticket for one confirmation page. */
export const newTicket = (): string => randomBytes(16).toString("base64url");

/** Whether `text` is a ticket as newTicket mints them. */
export const isTicket = (text: string | undefined): text is string => text !== undefined && TICKET_PATTERN.test(text);
