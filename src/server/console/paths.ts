/** Where each console page and action lives: one table the routes, the pages' links and the tests read. */
export const CONSOLE_PATH = "/admin";
export const CONSOLE_PATHS = {
  home: CONSOLE_PATH,
  signIn: `${CONSOLE_PATH}/sign-in`,
  confirm: `${CONSOLE_PATH}/sign-in/confirm`,
  signOut: `${CONSOLE_PATH}/sign-out`,
  people: `${CONSOLE_PATH}/people`,
  peopleBulk: `${CONSOLE_PATH}/people/selected`,
  import: `${CONSOLE_PATH}/people/import`,
  importStart: `${CONSOLE_PATH}/people/import/start`,
  importRefused: `${CONSOLE_PATH}/people/import/refused.csv`,
  funnel: `${CONSOLE_PATH}/funnel.csv`,
  invite: `${CONSOLE_PATH}/invite`,
  waves: `${CONSOLE_PATH}/waves`,
  remove: `${CONSOLE_PATH}/remove`,
  export: `${CONSOLE_PATH}/export`,
  exportPart: `${CONSOLE_PATH}/export/part`,
  updates: `${CONSOLE_PATH}/updates`,
  updateMail: `${CONSOLE_PATH}/updates/mail`,
  jobs: `${CONSOLE_PATH}/jobs`,
  webhooks: `${CONSOLE_PATH}/webhooks`,
  audit: `${CONSOLE_PATH}/audit`,
  person: `${CONSOLE_PATH}/person`,
} as const;

/** A console path with a query string, empty values left out. */
export function consoleHref(path: string, params: Record<string, string | number | null | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The People list filtered to wave `id`: who it invited. */
export const waveListHref = (id: number) => consoleHref(CONSOLE_PATHS.people, { wave: id });
