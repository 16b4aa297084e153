/**
 * An update's e-mail shown as it arrives (update-mail.tsx serves it and says why a frame): its subject, then the
 * e-mail at a phone's width and at a computer's, each in a sandboxed frame of its own page, the plain-text part one
 * click away, and a link to open the e-mail alone. The frames' widths are the e-mail's readers', not the console's:
 * on a phone the wider one scrolls sideways inside its own box.
 */
import type { Draft } from "../../updates";
import { MAIL_FRAME_SANDBOX, sampleEmail } from "./update-mail";

/** The widths the e-mail is shown at: a small phone's, and a computer's mail pane. */
const WIDTHS = [
  { name: "phone", label: "On a phone (360 px wide)", width: 360 },
  { name: "desktop", label: "On a computer (640 px wide)", width: 640 },
] as const;

/** How tall each frame is: the e-mail scrolls inside it when longer. */
const HEIGHT = 560;

/** The e-mail of `draft` (served at `src`, its links the samples of `origin`): its subject, then the frames. */
export function MailFrames({ src, draft, origin }: { src: string; draft: Draft; origin: string }) {
  const { subject } = draft;
  return (
    <>
      <p>
        <strong>Subject:</strong> {subject}
      </p>
      <div className="mail-frames">
        {WIDTHS.map(({ name, label, width }) => (
          <figure key={name} className="mail-frame">
            <figcaption>{label}</figcaption>
            {/* On a phone the wider frame scrolls sideways in its box: focusable, so a keyboard scrolls it too. */}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus (WCAG 2.1.1) */}
            <div className="frame-box" tabIndex={0}>
              <iframe
                src={src}
                title={`The e-mail “${subject}”, ${name === "phone" ? "on a phone" : "on a computer"}`}
                sandbox={MAIL_FRAME_SANDBOX}
                width={width}
                height={HEIGHT}
              />
            </div>
          </figure>
        ))}
      </div>
      <p>
        <a href={src} target="_blank" rel="noopener">
          Open the e-mail on its own
        </a>
      </p>
      <details>
        <summary>The plain-text part</summary>
        <pre>{sampleEmail(draft, origin).text}</pre>
      </details>
    </>
  );
}
