/**
 * The bulk actions' parts (people-bulk.tsx uses them): which people a form chose (at most one page of the list), why
 * someone is left out of an invitation, the chosen listed by address with their badge, the confirmation's form (the
 * same people by id, the same action, confirmed), and the frame of each page with its way back to the list.
 */
import type { ReactNode } from "react";
import { CONSOLE_PATHS, consoleHref, page } from "../pages";
import { ConfirmForm, StatusBadge } from "../ui/parts";
import { PER_PAGE } from "./list";
import type { ChosenPerson } from "./people-data";

const IDS = /^\d{1,15}(,\d{1,15})*$/;
const SELECTED = /^select-(\d{1,15})$/;

/** The people chosen: the list's checkboxes, or the confirmation's `ids`; null past one page of them. */
export function chosenIds(fields: Record<string, string>): number[] | null {
  const ticked = Object.keys(fields).flatMap((name) => {
    const id = SELECTED.exec(name)?.[1];
    return id && fields[name] === "yes" ? [Number(id)] : [];
  });
  const given = IDS.test(fields["ids"] ?? "") ? (fields["ids"] ?? "").split(",").map(Number) : [];
  const ids = [...new Set(ticked.length > 0 ? ticked : given)];
  return ids.length > PER_PAGE ? null : ids;
}

/** Why a chosen person is left out of an invitation; null: they are invited. */
export function notInvited(person: ChosenPerson): string | null {
  if (person.status === "pending") return "Hasn't confirmed their address yet, so can't be invited.";
  if (person.status === "invited") return "Already invited.";
  if (person.status === "joined") return "Already joined.";
  if (person.held) return "A wave is sending their invitation right now.";
  // Named here, before the button, as the wave would leave them out anyway (issue 48: counts name who is invited).
  if (person.suppressed) return "On the suppression list (a bounce or a complaint), so no invitation can reach them.";
  return null;
}

export function ChosenList({ people, why }: { people: ChosenPerson[]; why?: (person: ChosenPerson) => string | null }) {
  return (
    <ul className="chosen">
      {people.map((p) => (
        <li key={p.id}>
          <a href={consoleHref(CONSOLE_PATHS.person, { id: p.id })}>{p.email}</a> <StatusBadge status={p.status} />
          <span className="note">
            {" "}
            signed up {p.createdAt.slice(0, 10)}
            {p.source ? ` from ${p.source}` : ""}
          </span>
          {why?.(p) ? <span className="why">{why(p)}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** A page of the bulk flow: its heading, its sections, and a way back to the list as it was. */
export function bulkPage(status: number, title: string, body: ReactNode, admin: string, back: string) {
  return page(
    status,
    title,
    <>
      <h1>{title}</h1>
      {body}
      <p>
        <a href={back}>Back to the list</a>
      </p>
    </>,
    admin,
    {},
    { area: "people" },
  );
}

/** The confirmation's form: the same people (by id), the same action, confirmed; Cancel back to the list. */
export function BulkConfirmForm(props: {
  action: string;
  people: ChosenPerson[];
  back: string;
  /** The page's question ("Invite 3 people?"): its button says it. */
  title: string;
  danger?: boolean;
}) {
  return (
    <ConfirmForm
      action={CONSOLE_PATHS.peopleBulk}
      fields={{ action: props.action, ids: props.people.map((p) => p.id).join(","), back: props.back }}
      label={props.title.replace("?", "")}
      danger={props.danger ?? false}
      back={consoleHref(CONSOLE_PATHS.people, Object.fromEntries(new URLSearchParams(props.back)))}
    />
  );
}
