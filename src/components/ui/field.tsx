import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../lib/cn";

const control =
  "mt-1.5 block w-full rounded-lg border border-ink-200 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-xs placeholder:text-ink-500 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600";

export function Label({ className, ...props }: ComponentProps<"label">) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor
  return <label className={cn("block text-sm font-semibold text-ink-900", className)} {...props} />;
}

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(control, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(control, "min-h-24 resize-y", className)} {...props} />;
}

interface FieldProps {
  id: string;
  label: string;
  hint?: string;
  children: ReactNode;
}

/** A label, an optional hint and one control, stacked. */
export function Field({ id, label, hint, children }: FieldProps) {
  return (
    <div>
      <Label htmlFor={id}>
        {label}
        {hint && <span className="font-normal text-ink-600"> {hint}</span>}
      </Label>
      {children}
    </div>
  );
}

export function Button({ className, ...props }: ComponentProps<"button">) {
  return (
    <button
      className={cn(
        "inline-flex items-center justify-center rounded-full bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-70",
        className,
      )}
      {...props}
    />
  );
}
