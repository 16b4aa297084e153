/**
 * The console's small parts, one idea each, shared by every page: a status as a badge, a notice or an error, a
 * section with its heading, a labelled list of figures. Props typed from the elements they render.
 */
import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../../lib/cn";
import type { EntryStatus } from "../../entry";

export const STATUS_LABELS: Record<EntryStatus, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  invited: "Invited",
  joined: "Joined",
};

/** A person's status as a coloured badge: the word is always there, the colour only adds to it. */
export function StatusBadge({ status }: { status: EntryStatus }) {
  return <span className={cn("badge", status)}>{STATUS_LABELS[status]}</span>;
}

/** Any other short state as a badge: muted (neutral) or bad (needs the team). */
export function Badge({ tone = "muted", className, ...props }: ComponentProps<"span"> & { tone?: "muted" | "bad" }) {
  return <span className={cn("badge", tone, className)} {...props} />;
}

/** What an action just did (role=status), a warning, or why it could not (role=alert). */
export function Notice({
  tone = "done",
  className,
  ...props
}: ComponentProps<"p"> & { tone?: "done" | "warn" | "error" }) {
  const kind = tone === "done" ? "notice" : tone;
  return <p className={cn(kind, className)} role={tone === "error" ? "alert" : "status"} {...props} />;
}

/** A card with its heading; the heading names the region. */
export function Section({
  id,
  title,
  children,
  ...props
}: ComponentProps<"section"> & { id: string; title: ReactNode }) {
  return (
    <section aria-labelledby={id} {...props}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * Figures with their names: a <dl> of cards (className "totals" for big numbers, "facts" for words), or of
 * label-and-value lines ("pairs", a person's facts).
 */
export function Figures({
  items,
  className = "facts",
}: {
  items: ReadonlyArray<readonly [label: ReactNode, value: ReactNode]>;
  className?: "facts" | "totals" | "pairs";
}) {
  return (
    <dl className={className}>
      {items.map(([label, value], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, rendered once on the server
        <div key={i}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The form that answers a question page ("Remove …?", "Invite now?", "Cancel …?"): the same request again with
 * `confirm=yes`, one button that does it (danger when it cannot be undone), and a way back that does nothing.
 */
export function ConfirmForm({
  action,
  fields,
  label,
  danger = false,
  back,
  backLabel = "Cancel",
}: {
  action: string;
  fields: Record<string, string | number>;
  label: ReactNode;
  danger?: boolean;
  back: string;
  backLabel?: string;
}) {
  return (
    <form method="post" action={action}>
      {Object.entries({ ...fields, confirm: "yes" }).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="row">
        <button type="submit" className={danger ? "danger" : undefined}>
          {label}
        </button>
        <a className="button quiet" href={back}>
          {backLabel}
        </a>
      </div>
    </form>
  );
}

/** A labelled input: the label names it (htmlFor its id), the input takes every attribute an <input> may. */
export function Field({ label, ...input }: ComponentProps<"input"> & { id: string; label: ReactNode }) {
  return (
    <div>
      <label htmlFor={input.id}>{label}</label>
      <input {...input} />
    </div>
  );
}

/**
 * An address or an identifier (an event's type, a code, a link): one line always, cut with an ellipsis when its box
 * is narrower, whole in its title (styles-text.ts). `code` sets it as code.
 */
export function Ident({ text, code = false, className }: { text: string; code?: boolean; className?: string }) {
  return code ? (
    <code className={cn("ident", className)} title={text}>
      {text}
    </code>
  ) : (
    <span className={cn("ident", className)} title={text}>
      {text}
    </span>
  );
}
