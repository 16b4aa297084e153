/**
 * What an audit entry names by id, looked up before its sentence is made (words.ts): an update's subject and
 * counts, a wave's size and counts, a webhook event's type. The helpers here read an entry's details safely: the
 * details are JSON written by many versions of the code, so every value is checked before it is used.
 */
import { counted } from "../../lib/plural";

export type Details = Record<string, unknown>;

export interface AuditNames {
  updates: ReadonlyMap<number, { subject: string; sent: number; failed: number; finished: boolean }>;
  waves: ReadonlyMap<number, { size: number; invited: number; finished: boolean }>;
  /** Webhook events by id: their type (an event is deleted 30 days after delivery). */
  events: ReadonlyMap<string, string>;
}

export const NO_NAMES: AuditNames = { updates: new Map(), waves: new Map(), events: new Map() };

export const numberIn = (d: Details, key: string): number | null => {
  const value = d[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
};
export const textIn = (d: Details, key: string): string | null => {
  const value = d[key];
  return typeof value === "string" && value !== "" ? value : null;
};

export const people = (n: number) => counted(n, "person", "people");

/** "the update “March news”", or "an update" when it is gone and the entry did not keep its subject. */
export function updateName(id: number | null, names: AuditNames, subject: string | null = null): string {
  const known = (id === null ? undefined : names.updates.get(id))?.subject ?? subject;
  return known === null ? "an update" : `the update “${known}”`;
}

/** "a wave of 40 people", or "a wave" when it is gone. */
export function waveName(id: number | null, names: AuditNames): string {
  const wave = id === null ? undefined : names.waves.get(id);
  return wave ? `a wave of ${people(wave.size)}` : "a wave";
}

/** A long job (jobs/: kind and id) by what it is: an update by its subject, a wave by its size. */
export function jobName(d: Details, names: AuditNames): string {
  const id = numberIn(d, "id");
  if (d["kind"] === "update") return updateName(id, names);
  if (d["kind"] === "wave") return waveName(id, names);
  if (d["kind"] === "webhooks") return "the delivery of waiting webhook events";
  return "a long job";
}
