import type { ComponentProps } from "react";
import { HONEYPOT_FIELD } from "../../lib/waitlist/rules";

/** A field only bots fill: off-screen, hidden from assistive technology, out of the tab order, no autofill. */
export function Honeypot({ id, ...props }: ComponentProps<"input"> & { id: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input
        id={id}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        data-1p-ignore
        data-lpignore="true"
        data-bwignore
        {...props}
      />
    </div>
  );
}
