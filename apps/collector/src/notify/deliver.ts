/**
 * One HTTP POST of JSON with bounded, jittered exponential backoff: Node's fetch with a timeout
 * per try, never a child process. Never throws: the outcome says how many tries it took and the
 * last error in plain words.
 */
import { networkProblem } from '../fleet/peer-client.ts';

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
  timeoutMs: number;
}

export interface DeliverDeps {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** 0..1, for the jitter (tests pass a fixed one). */
  random: () => number;
}

export type Delivery = { ok: true; attempts: number } | { ok: false; attempts: number; error: string };

/** No retry delay grows past this: a down target is tried again by the next cycle anyway. */
const MAX_DELAY_MS = 60_000;

/** Delay before retry `n` (1 = the first retry): backoff·2^(n-1), jittered to 50..150 %. */
export function retryDelay(n: number, backoffMs: number, random: () => number): number {
  return Math.min(MAX_DELAY_MS, Math.round(backoffMs * 2 ** (n - 1) * (0.5 + random())));
}

/** A 4xx other than 408 and 429 says the request itself is wrong: sending it again will not help. */
const permanent = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  policy: RetryPolicy,
  deps: DeliverDeps,
): Promise<Delivery> {
  const text = JSON.stringify(body);
  let error = 'not tried';
  for (let n = 1; n <= policy.attempts; n++) {
    if (n > 1) await deps.sleep(retryDelay(n - 1, policy.backoffMs, deps.random));
    try {
      const res = await deps.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: text,
        redirect: 'error',
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
      // The body is read (and capped) so the connection is released; only its start is kept.
      const answer = (await res.text().catch(() => '')).slice(0, 300).trim();
      if (res.ok) return { ok: true, attempts: n };
      error = `HTTP ${res.status}${answer ? `: ${answer}` : ''}`;
      if (permanent(res.status)) return { ok: false, attempts: n, error };
    } catch (err) {
      error = networkProblem(err, policy.timeoutMs).problem;
    }
  }
  return { ok: false, attempts: policy.attempts, error };
}
