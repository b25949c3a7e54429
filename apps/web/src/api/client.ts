/**
 * The one typed fetch helper. Every response type comes from `@ibwatch/fabric` (api.ts is the
 * contract). Failures become `ApiError(status, message)` with the API's own message, so views
 * can show it verbatim; status 0 means the request never got an HTTP answer.
 */
import type { HttpMethod, ReplyOf } from '@ibwatch/fabric';
import { getToken } from './token.ts';

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** Pull a human message out of an error body (Fastify replies `{statusCode, error, message}`). */
export function errorMessage(status: number, body: unknown, statusText = ''): string {
  if (status === 401) return 'token missing or wrong';
  if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    if (typeof o.message === 'string' && o.message) return o.message;
    if (typeof o.error === 'string' && o.error) return o.error;
  }
  if (typeof body === 'string' && body.trim() && body.length < 300 && !body.trimStart().startsWith('<'))
    return body.trim();
  return `HTTP ${status}${statusText ? ' ' + statusText : ''}`;
}

/** The headers of every request: JSON, and the write token when one is set. */
function requestHeaders(hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (hasBody) headers['Content-Type'] = 'application/json';
  const token = getToken();
  // Reads carry the token too: with IBWATCH_READS_NEED_TOKEN the collector refuses a read
  // without it, and on a collector that does not ask, it is ignored (same origin only).
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * A request's reply as the API's callers get it: the parsed JSON, or an ApiError. Also reads
 * the request public/prefetch.js starts before the app has loaded (api/prefetch.ts).
 */
export async function readReply<T>(path: string, sent: Promise<Response>): Promise<T> {
  let res: Response;
  try {
    res = await sent;
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, `cannot reach the collector (${e instanceof Error ? e.message : String(e)})`);
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, parsed, res.statusText));
  if (typeof parsed === 'string') throw new ApiError(res.status, `expected JSON from ${path}, got text`);
  return parsed as T;
}

/**
 * Sends a request with the headers of every request and returns the response unread, for a
 * caller that reads the body itself (the topology view hands its bytes to a worker).
 */
export function send(method: HttpMethod, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const headers = requestHeaders(body !== undefined);
  // In an async function: a fetch() that throws at once is read as one that failed (status 0).
  return (async () =>
    fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal }))();
}

async function request<T>(method: HttpMethod, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return readReply<T>(path, send(method, path, body, signal));
}

/**
 * Typed per endpoint: the reply type is the route's in the contract (`ReplyOf`, from the same
 * schemas the collector declares), so `api.get('/api/worklist')` is a `Promise<WorklistEntry[]>`,
 * and the reply of a path no route answers is `never` (using it does not compile).
 */
export const api = {
  get<P extends string>(path: P, signal?: AbortSignal): Promise<ReplyOf<'GET', P>> {
    return request('GET', path, undefined, signal);
  },
  post<P extends string>(path: P, body: unknown = {}): Promise<ReplyOf<'POST', P>> {
    return request('POST', path, body);
  },
};
