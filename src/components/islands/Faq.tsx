import { Disclosure, DisclosureButton, DisclosurePanel } from "@headlessui/react";
import { useEffect, useRef } from "react";
import { cn } from "../../lib/cn";
import type { FaqEntry } from "../../lib/content";

type CloseFn = (focus?: HTMLElement) => void;

interface FaqProps {
  items: readonly Pick<FaqEntry, "id" | "question" | "answer">[];
}

/**
 * An accordion of questions: one answer open at a time, the open one collapses on click.
 * Panels stay in the DOM (`unmount={false}`) so every answer is in the server-rendered HTML.
 */
export default function Faq({ items }: FaqProps) {
  const closers = useRef(new Map<string, CloseFn>());

  const closeOthers = (id: string) => {
    // Headless UI's close() moves focus; handing it the focused element keeps focus where the user is.
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    for (const [otherId, close] of closers.current) {
      if (otherId !== id) close(focused);
    }
  };

  return (
    <div className="mt-10 divide-y divide-ink-100 rounded-(--radius-card) bg-white shadow-(--shadow-card) ring-1 ring-ink-100">
      {items.map((item) => (
        <Disclosure key={item.id} as="div" className="px-5 sm:px-6" data-faq-item={item.id}>
          {({ open, close }) => {
            if (open) closers.current.set(item.id, close);
            else closers.current.delete(item.id);
            return (
              <>
                <h3>
                  <FaqButton open={open}>{item.question}</FaqButton>
                </h3>
                <OnOpen open={open} onOpen={() => closeOthers(item.id)} />
                <DisclosurePanel unmount={false} className="pb-6 text-ink-700">
                  {item.answer.split(/\n{2,}/).map((paragraph) => (
                    <p key={paragraph} className="mt-3 leading-relaxed first:mt-0">
                      {paragraph}
                    </p>
                  ))}
                </DisclosurePanel>
              </>
            );
          }}
        </Disclosure>
      ))}
    </div>
  );
}

interface FaqButtonProps {
  open: boolean;
  children: string;
}

function FaqButton({ open, children }: FaqButtonProps) {
  return (
    <DisclosureButton className="flex w-full items-center justify-between gap-6 py-5 text-left text-base font-semibold text-ink-900 sm:text-lg">
      <span>{children}</span>
      <svg
        viewBox="0 0 20 20"
        width="20"
        height="20"
        aria-hidden="true"
        className={cn("shrink-0 text-brand-600 transition-transform duration-200", open && "rotate-45")}
      >
        <path d="M10 4v12M4 10h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </DisclosureButton>
  );
}

/** Calls `onOpen` when an item opens, however it was opened (click, Enter or Space). */
function OnOpen({ open, onOpen }: { open: boolean; onOpen: () => void }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: react to `open` changes only
  useEffect(() => {
    if (open) onOpen();
  }, [open]);
  return null;
}
