/** Reading a request's body: bounded in size, strictly decoded, as text or as a form's fields. */

class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

/**
 * Reads a request body as text, refusing it as soon as it passes `limit` bytes: a huge body is never
 * held in memory whole. A declared Content-Length over the limit is refused before reading anything.
 */
async function readText(request: Request, limit: number): Promise<string> {
  return new TextDecoder("utf-8", { fatal: true }).decode(await readBytes(request, limit));
}

async function readBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) throw new BodyTooLargeError();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * A request body as text, or the answer to give instead: 413 past `limit` bytes, 400 when it is not UTF-8.
 * The one place both functions read a body.
 */
export async function readBody(
  request: Request,
  limit: number,
): Promise<{ text: string } | { status: 400 | 413; message: string }> {
  try {
    return { text: await readText(request, limit) };
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { status: 413, message: "Request body is too large." };
    return { status: 400, message: "Request body is not valid UTF-8." };
  }
}

/** A request body parsed as JSON (any value), or readBody's refusal, or 400 when it is not JSON. */
export async function readJson(
  request: Request,
  limit: number,
): Promise<{ body: unknown } | { status: 400 | 413; message: string }> {
  const read = await readBody(request, limit);
  if ("status" in read) return read;
  try {
    return { body: JSON.parse(read.text) };
  } catch {
    return { status: 400, message: "Request body is not valid JSON." };
  }
}

/** The request's media type without parameters, lowercased (`application/json`); undefined when absent. */
export function mediaType(request: Request): string | undefined {
  return request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
}

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

/** A file sent by a multipart form: its name and bytes. */
export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * A `multipart/form-data` post (a file upload) read within `limit` bytes: its text fields, and its one file field
 * `fileField` if sent; or the status to answer instead (413 past the limit, 400 when it is not such a form).
 */
export async function readMultipart(
  req: Request,
  limit: number,
  fileField: string,
): Promise<{ fields: Record<string, string>; file: UploadedFile | null } | { status: 400 | 413; message: string }> {
  if (mediaType(req) !== "multipart/form-data")
    return { status: 400, message: "The form was not sent as a file upload." };
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(req, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { status: 413, message: "Request body is too large." };
    throw error;
  }
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    return { status: 400, message: "The upload could not be read." };
  }
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  for (const [key, value] of form.entries()) {
    if (typeof value === "string") fields[key] = value;
    else if (key === fileField && value.size > 0)
      file = { name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) };
  }
  return { fields, file };
}
