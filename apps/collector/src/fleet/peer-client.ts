/**
 * Reads another fabric's collector for the fleet wall: its `/api/health` (the version) and
 * `/api/summary`, with the global `fetch`, a timeout, a size limit and no redirects. Never
 * throws: every way it can go wrong becomes UNREACHABLE (no HTTP answer) or ERROR (an answer
 * that cannot be used) with the reason in plain words.
 */
import { fleetSummaryOf, versionCompatible, type FabricSummary, type FleetReading } from '@ibwatch/fabric';
import { summaryProblem } from './summary-shape.ts';

export interface PeerReadOptions {
  /** For both requests together, body included. */
  timeoutMs: number;
  /** Bearer token for the summary (a peer with IBWATCH_READS_NEED_TOKEN); /api/health is open. */
  token?: string;
  /** This collector's version: a peer of another API is refused. */
  ourVersion: string;
  /** Largest body read (a summary of a 10k-GPU fabric is well under 1 MiB). */
  maxBytes?: number;
  fetch?: typeof fetch;
}

const MAX_BYTES = 16 << 20;

type Got = { ok: true; body: unknown } | { ok: false; word: 'UNREACHABLE' | 'ERROR'; problem: string };

/** Plain words for why a request got no HTTP answer; TLS failures are ERROR (something answered). */
export function networkProblem(err: unknown, timeoutMs: number): { word: 'UNREACHABLE' | 'ERROR'; problem: string } {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return { word: 'UNREACHABLE', problem: `no answer within ${timeoutMs / 1000} s` };
  const code = e?.cause?.code ?? '';
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host name not found',
    EAI_AGAIN: 'host name lookup failed (DNS)',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ECONNRESET: 'connection reset',
    EPIPE: 'connection closed',
    UND_ERR_SOCKET: 'connection closed',
    UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  };
  if (words[code]) return { word: 'UNREACHABLE', problem: words[code] };
  if (/CERT|TLS|SSL/.test(code)) return { word: 'ERROR', problem: `TLS: ${e.cause?.message ?? code}` };
  const detail = e?.cause?.message ?? e?.message ?? String(err);
  return { word: 'UNREACHABLE', problem: `no answer (${code ? `${code}: ` : ''}${detail})` };
}

/** Reads at most `max` bytes of a body; null when it is longer. */
async function readCapped(res: Response, max: number): Promise<string | null> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) {
      await res.body.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The message of an error body (Fastify's `{statusCode, error, message}`), short. */
function bodyMessage(text: string): string {
  try {
    const o = JSON.parse(text) as { message?: unknown; error?: unknown };
    const m = typeof o.message === 'string' && o.message ? o.message : typeof o.error === 'string' ? o.error : '';
    if (m) return `: ${m.slice(0, 200)}`;
  } catch {
    // not JSON: the status says enough
  }
  return '';
}

async function getJson(url: string, path: string, o: PeerReadOptions, signal: AbortSignal): Promise<Got> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let res: Response;
  let text: string | null;
  try {
    // No redirects: a token must not follow one, and a moved collector is a configuration fix.
    res = await (o.fetch ?? fetch)(`${url}${path}`, { headers, signal, redirect: 'manual' });
    text = await readCapped(res, o.maxBytes ?? MAX_BYTES);
  } catch (err) {
    return { ok: false, ...networkProblem(err, o.timeoutMs) };
  }
  const fail = (problem: string): Got => ({ ok: false, word: 'ERROR', problem });
  if (res.status >= 300 && res.status < 400)
    return fail(
      `${path} redirects (HTTP ${res.status}) to ${res.headers.get('location') ?? '?'}: put that address in ` +
        `IBWATCH_PEERS`,
    );
  if (res.status === 401)
    return fail(
      o.token
        ? `${path} refused the read token (HTTP 401): check IBWATCH_PEER_TOKEN(S)`
        : `${path} needs a read token (HTTP 401): set IBWATCH_PEER_TOKEN or IBWATCH_PEER_TOKENS`,
    );
  if (text === null) return fail(`${path} answered more than ${Math.round((o.maxBytes ?? MAX_BYTES) / 1024)} KiB`);
  if (!res.ok) return fail(`${path} answered HTTP ${res.status}${bodyMessage(text)}`);
  const type = (res.headers.get('content-type') ?? 'no content type').split(';')[0]!.trim();
  if (!/^application\/(.+\+)?json$/i.test(type))
    return fail(`${path} answered ${type}, not JSON: is ${url} an ibwatch collector?`);
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch (err) {
    return fail(`${path} is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * What the collector at `url` says now: its summary, trimmed for the wall, and its version; or
 * UNREACHABLE / ERROR and why. Both requests run at once, within one timeout.
 */
export async function readPeer(url: string, o: PeerReadOptions): Promise<FleetReading> {
  // One deadline for both; `done` drops the summary request once the health reply settles it.
  const done = new AbortController();
  const signal = AbortSignal.any([AbortSignal.timeout(o.timeoutMs), done.signal]);
  const summaryP = getJson(url, '/api/summary', o, signal);
  const refuse = (r: FleetReading): FleetReading => {
    done.abort();
    return r;
  };
  const health = await getJson(url, '/api/health', { ...o, token: undefined }, signal);
  if (!health.ok) return refuse(health);
  const version = (health.body as { version?: unknown } | null)?.version;
  if (typeof version !== 'string')
    return refuse({ ok: false, word: 'ERROR', problem: `/api/health has no version: is ${url} an ibwatch collector?` });
  if (!versionCompatible(o.ourVersion, version))
    return refuse({
      ok: false,
      word: 'ERROR',
      problem: `ibwatch ${version.slice(0, 40)} there and ${o.ourVersion} here do not share an API: upgrade one`,
    });
  const summary = await summaryP;
  if (!summary.ok) return summary;
  const shape = summaryProblem(summary.body);
  if (shape)
    return { ok: false, word: 'ERROR', problem: `/api/summary is not what ibwatch ${o.ourVersion} reads: ${shape}` };
  return { ok: true, summary: fleetSummaryOf(summary.body as FabricSummary), version };
}
