/**
 * The sign-in's pages: the form (an address for a link, or the admin token), "check your inbox" once a link is on
 * its way, and the page an e-mailed link opens. Any console page asked for without a session is this form, which
 * carries that page (return-to.ts) so that signing in, by token or by link, lands on it.
 */
import { page } from "../pages";
import { CONSOLE_PATH, CONSOLE_PATHS } from "../paths";
import { Field, Notice } from "../ui/parts";
import { isDeepTarget, RETURN_FIELD } from "./return-to";

export type SignInMode = "email" | "token";

/** What the sign-in page says above its form, or instead of it once a link is on its way. */
export interface SignInNote {
  /** A link was sent: the page says so and where to go next, without the form again. */
  sent?: string;
  /** The admin just signed out. */
  signedOut?: boolean;
  error?: string;
  /** The console page to land on once signed in (checked by returnTarget); the Overview when absent. */
  next?: string;
}

function sentPage(status: number, sent: string): Response {
  return page(
    status,
    "Check your inbox",
    <>
      <h1>Check your inbox</h1>
      <section>
        <Notice>{sent}</Notice>
        <p className="note">Nothing arrived? Look in spam, or ask again in a few minutes.</p>
        <p>
          <a href={CONSOLE_PATH}>Use another address</a>
        </p>
      </section>
    </>,
  );
}

export function signInPage(mode: SignInMode, note: SignInNote = {}, status = 200): Response {
  if (note.sent) return sentPage(status, note.sent);
  const intro =
    mode === "email"
      ? "Enter your address. If it may use the console, we'll e-mail it a sign-in link that works once, for 15 minutes."
      : "E-mail is off on this site: sign in with the admin token (WAITLIST_ADMIN_TOKEN).";
  const deep = note.next !== undefined && isDeepTarget(note.next);
  return page(
    status,
    "Sign in",
    <>
      <h1>Sign in</h1>
      <section>
        {note.signedOut ? <Notice>You're signed out. Sign in again whenever you need the console.</Notice> : null}
        {note.error ? <Notice tone="error">{note.error}</Notice> : null}
        {deep && !note.error ? (
          <Notice tone="warn">Sign in to see that page: you'll be taken to it once you're in.</Notice>
        ) : null}
        <p className="note">{intro}</p>
        <form method="post" action={CONSOLE_PATHS.signIn}>
          {deep ? <input type="hidden" name={RETURN_FIELD} value={note.next} /> : null}
          <div className="row">
            {mode === "email" ? (
              <Field label="Email" id="email" name="email" type="email" autoComplete="email" required maxLength={255} />
            ) : (
              <Field
                label="Admin token"
                id="token"
                name="token"
                type="password"
                autoComplete="current-password"
                required
                maxLength={512}
              />
            )}
            <button type="submit">{mode === "email" ? "Send me a sign-in link" : "Sign in"}</button>
          </div>
        </form>
      </section>
    </>,
  );
}

/** The page a sign-in link opens: one button, so a mail scanner that follows the link signs nobody in. */
export function confirmSignInPage(action: string): Response {
  return page(
    200,
    "Sign in",
    <>
      <h1>Sign in to the console</h1>
      <section>
        <p>One click signs you in on this device for 12 hours.</p>
        <form method="post" action={action}>
          <button type="submit">Sign in</button>
        </form>
      </section>
    </>,
  );
}
