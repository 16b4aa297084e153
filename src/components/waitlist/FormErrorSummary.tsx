interface FormErrorSummaryProps {
  id: string;
  title: string;
  message: string;
  /** The control the message is about, when it has one: the message links to it. */
  href?: string | undefined;
}

/**
 * Why a form post was refused, at the top of the form it is shown again with (/join without JavaScript): announced,
 * and focused as the page opens (autofocus needs no script), so a keyboard or screen-reader user starts at the reason
 * and its link leads to the control, where the same message stands beside it.
 */
export function FormErrorSummary({ id, title, message, href }: FormErrorSummaryProps) {
  return (
    // biome-ignore lint/a11y/noAutofocus: the page exists to say this; without JavaScript nothing else can focus it
    <div id={id} role="alert" tabIndex={-1} autoFocus className="rounded-lg bg-danger-50 p-4 ring-1 ring-danger-700">
      <p className="font-semibold text-ink-950">{title}</p>
      <p className="mt-1 text-ink-900">
        {href ? (
          <a href={href} className="font-semibold text-brand-700 underline">
            {message}
          </a>
        ) : (
          message
        )}
      </p>
    </div>
  );
}
