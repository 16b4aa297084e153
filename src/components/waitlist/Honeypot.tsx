import { HONEYPOT_FIELD } from "../../lib/waitlist/rules";

interface HoneypotProps {
  value: string;
  onChange: (value: string) => void;
}

/** A field only bots fill: off-screen, hidden from assistive technology, out of the tab order, no autofill. */
export function Honeypot({ value, onChange }: HoneypotProps) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor="waitlist-homepage">Leave this field empty</label>
      <input
        id="waitlist-homepage"
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        data-1p-ignore
        data-lpignore="true"
        data-bwignore
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </div>
  );
}
