import toast, { resolveValue, type Toast, useToaster } from "react-hot-toast/headless";
import { cn } from "../../lib/cn";

/**
 * Toasts on react-hot-toast's headless store, drawn with Tailwind: no runtime CSS-in-JS, so the strict
 * Content-Security-Policy (hashed styles only) holds.
 */
function ToastBody({ title, description }: { title: string; description: string }) {
  return (
    <>
      <p className="font-semibold">{title}</p>
      <p className="mt-0.5 text-sm">{description}</p>
    </>
  );
}

/**
 * One outcome on screen at a time: a new one takes the place of the last (a refused first try's error must not sit
 * beside the success of the second), removed at once rather than faded, so no stale alert stays in the page.
 */
const replaceLast = () => toast.remove();

/** A destructive toast, announced at once to screen readers (role="alert"). */
export function toastError(title: string, description: string) {
  replaceLast();
  toast.error(<ToastBody title={title} description={description} />, {
    duration: 6000,
    ariaProps: { role: "alert", "aria-live": "assertive" },
  });
}

/** A success toast, announced politely (role="status"). */
export function toastSuccess(title: string, description: string) {
  replaceLast();
  toast.success(<ToastBody title={title} description={description} />, {
    duration: 5000,
    ariaProps: { role: "status", "aria-live": "polite" },
  });
}

function ToastItem({ item }: { item: Toast }) {
  const destructive = item.type === "error";
  return (
    <div
      {...item.ariaProps}
      className={cn(
        "pointer-events-auto w-full max-w-sm rounded-xl px-4 py-3 text-white shadow-lg ring-1 transition-opacity duration-200",
        destructive ? "toast-destructive bg-danger-700 ring-danger-700" : "toast-success bg-ink-900 ring-ink-800",
        item.visible ? "opacity-100" : "opacity-0",
      )}
    >
      {resolveValue(item.message, item)}
    </div>
  );
}

/**
 * Where toasts appear; render it where assistive technology can reach it (inside an open dialog). At the top while
 * the form is open (an error is read beside the form), clear of the dialog's close button (44 px at its top right):
 * on a phone the column keeps 5 rem free at the right; from `sm` the dialog is narrower than the screen and its
 * button sits outside the centred column. At the bottom over the thank-you view (`bottom`), whose check mark and
 * heading sit at the dialog's top: the success toast never covers them, at any width.
 */
export function Toaster({ bottom = false }: { bottom?: boolean }) {
  const { toasts } = useToaster();
  return (
    <div
      className={cn(
        "pointer-events-none fixed inset-x-0 z-60 flex flex-col items-center gap-2 px-4",
        bottom ? "bottom-4" : "top-4 pr-20 sm:pr-4",
      )}
    >
      {toasts.map((item) => (
        <ToastItem key={item.id} item={item} />
      ))}
    </div>
  );
}
