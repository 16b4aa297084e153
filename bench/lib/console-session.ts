/**
 * The console as the benchmarks use it: signed in with WAITLIST_ADMIN_TOKEN as a browser does (the form's POST, its
 * cookie kept), and a page timed over HTTP, median of a few after one unmeasured request (which loads its code and
 * plans).
 */
export const BENCH_TOKEN = "bench-scale-token-0123456789abcdef0123456789";

/** The session cookie of a sign-in to the console at `base` with `token`. */
export async function signIn(base: string, token = BENCH_TOKEN): Promise<string> {
  const res = await fetch(`${base}/admin/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: new URL(base).origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });
  const cookie = res.headers.get("set-cookie")?.split(";")[0] ?? "";
  if (res.status !== 303 || !cookie) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return cookie;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export interface PageTiming {
  median: number;
  max: number;
  /** Every answer was 200 with `expected` in it. */
  ok: boolean;
}

/** `path` at `base` with `cookie`, once unmeasured then `n` times: median and max ms, and whether each showed `expected`. */
export async function timePage(
  base: string,
  cookie: string,
  path: string,
  expected: string,
  n = 5,
): Promise<PageTiming> {
  const once = async () => {
    const res = await fetch(new URL(path, base), { headers: { Cookie: cookie } });
    const text = await res.text();
    return res.status === 200 && text.includes(expected);
  };
  let ok = await once();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    ok = (await once()) && ok;
    times.push(performance.now() - started);
  }
  return { median: median(times), max: Math.max(...times), ok };
}
