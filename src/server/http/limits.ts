/**
 * What a request may carry, decided once for every handler: how large a body may be, by kind, and what a numeric
 * id in a path or a form looks like. A body past its limit is refused while it is read (request-body.ts), never
 * held whole; an id that is not one is refused before any SQL sees it.
 */

export const BODY_LIMITS = {
  /** A form of a few fields (an address, a button, a console action): 4 KB is ten times the largest one. */
  form: 4 * 1024,
  /** A sign-up's or a redemption's JSON: ten times the largest valid sign-up. */
  json: 16 * 1024,
} as const;

/**
 * A row's id as text: 1 to 15 digits, no leading zero, so it is a whole number JavaScript holds exactly
 * (below 2^53) and Postgres's bigint takes, and one row has one spelling.
 */
export const ID_PATTERN = /^[1-9]\d{0,14}$/;

/** Whether `text` is a row's id as ID_PATTERN spells one. */
export const isId = (text: string | undefined): text is string => text !== undefined && ID_PATTERN.test(text);
