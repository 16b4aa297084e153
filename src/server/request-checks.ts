/** How a form post is read: strictly, its size bounded (where it may come from: origin.ts). */
import { readBody } from "./http";

export class FormEncodingError extends Error {
  override name = "FormEncodingError";
}

/**
 * An `application/x-www-form-urlencoded` body read strictly, unlike URLSearchParams: a percent-escape that is
 * not UTF-8 (`%FF`) or a field sent twice is refused rather than guessed at.
 */
export function parseForm(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    const [rawKey, rawValue] = at === -1 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey.replaceAll("+", " "));
      value = decodeURIComponent(rawValue.replaceAll("+", " "));
    } catch {
      throw new FormEncodingError("The form was not sent as valid UTF-8.");
    }
    if (Object.hasOwn(fields, key)) throw new FormEncodingError(`The form field "${key}" was sent more than once.`);
    fields[key] = value;
  }
  return fields;
}

/** A form post's fields read strictly (`parseForm`), or the status and message to answer instead (413, 400). */
export async function readFormFields(
  req: Request,
  limit: number,
): Promise<{ fields: Record<string, string> } | { status: 400 | 413; message: string }> {
  const read = await readBody(req, limit);
  if ("status" in read) return read;
  try {
    return { fields: parseForm(read.text) };
  } catch (error) {
    if (error instanceof FormEncodingError) return { status: 400, message: error.message };
    throw error;
  }
}
