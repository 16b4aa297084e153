import toast, { Toaster as HotToaster } from "react-hot-toast";

interface ToastBodyProps {
  title: string;
  description: string;
}

function ToastBody({ title, description }: ToastBodyProps) {
  return (
    <span className="block">
      <strong className="block font-semibold">{title}</strong>
      <span className="mt-0.5 block text-sm">{description}</span>
    </span>
  );
}

const base = { borderRadius: "0.75rem", padding: "0.75rem 1rem", maxWidth: "24rem", color: "#fff" };

/** A destructive toast, announced at once to screen readers (role="alert"). */
export function toastError(title: string, description: string) {
  toast.error(<ToastBody title={title} description={description} />, {
    duration: 6000,
    className: "toast-destructive",
    style: { ...base, background: "#b42318" },
    iconTheme: { primary: "#fff", secondary: "#b42318" },
    ariaProps: { role: "alert", "aria-live": "assertive" },
  });
}

/** A success toast, announced politely (role="status"). */
export function toastSuccess(title: string, description: string) {
  toast.success(<ToastBody title={title} description={description} />, {
    duration: 5000,
    className: "toast-success",
    style: { ...base, background: "#131a33" },
    iconTheme: { primary: "#b7a9ff", secondary: "#131a33" },
    ariaProps: { role: "status", "aria-live": "polite" },
  });
}

/** Where toasts appear; render it where assistive technology can reach it (inside an open dialog). */
export function Toaster() {
  return <HotToaster position="top-center" containerStyle={{ top: 16, zIndex: 60 }} />;
}
