/**
 * What an update may be, decided once for the console and the CLI: a subject on one line, a plain-text body of at
 * most 100 KB, and at least one person to reach. Each problem is one sentence people can act on.
 */
export const MAX_SUBJECT = 200;
/** 100 KB of UTF-8: a long letter is 20 KB; more is a mistake (a file pasted whole), and mail providers clip it. */
export const MAX_BODY_BYTES = 100 * 1024;

export interface Draft {
  subject: string;
  body: string;
}

/** The draft as it will be sent (the subject trimmed, the body's line ends made \n), or why it cannot be. */
export function checkDraft(subject: string, body: string): { draft: Draft } | { problem: string } {
  if (/[\r\n\u2028\u2029]/.test(subject)) return { problem: "The subject must be one line: remove the line break." };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character (a tab, an escape) is refused by name
  if (/[\u0000-\u001f\u007f]/.test(subject)) {
    return { problem: "The subject cannot hold a tab or another control character: remove it." };
  }
  const clean = subject.trim();
  if (clean === "") return { problem: "Write a subject." };
  if ([...clean].length > MAX_SUBJECT) return { problem: `Keep the subject within ${MAX_SUBJECT} characters.` };
  const text = body.replace(/\r\n?/g, "\n");
  if (text.trim() === "") return { problem: "Write the update's text." };
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_BODY_BYTES) {
    return {
      problem: `The text is ${Math.ceil(bytes / 1024)} KB; an update may be at most ${MAX_BODY_BYTES / 1024} KB.`,
    };
  }
  return { draft: { subject: clean, body: text.replace(/\s+$/, "") } };
}

export const NOBODY_TO_REACH =
  "Nobody would receive this update: no confirmed person on the list has said yes to updates yet.";
