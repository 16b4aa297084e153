/**
 * One JSON line per event. Callers pass only non-personal fields: never an e-mail, a name, an IP or a
 * connection string.
 */
let toStandardError = false;

/** Every line to standard error from now on: a command whose standard output is its answer (the CLI) calls it. */
export function logToStandardError(): void {
  toStandardError = true;
}

export function log(level: "info" | "warn" | "error", event: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  if (level === "error" || toStandardError) console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** The error's class and Postgres code, without its message (which may quote the data). */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: typeof error };
  const code = (error as { code?: unknown }).code;
  // A DataKeyError names a key and counts rows, a ConfigError a setting, never a person: their words are the fix.
  const said = error.name === "DataKeyError" || error.name === "ConfigError" ? { message: error.message } : {};
  return { error: error.name, ...(typeof code === "string" ? { code } : {}), ...said };
}
