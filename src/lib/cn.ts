/** Joins class names, skipping falsy values (the shadcn/ui `cn()` without a merge step). */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(" ");
}
