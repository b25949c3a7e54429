import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);

/** Below this, gzip saves less than the headers and the round trip to the thread pool cost. */
export const GZIP_MIN_BYTES = 16 * 1024;

export interface CachedReply {
  /** The reply, serialised once as UTF-8 JSON. */
  body: Buffer;
  builtAt: number;
  /**
   * Validator, new for every build (process start + build number): polling clients get 304s.
   * Weak, or strong (`strongEtag`): then the gzipped body's differs (`gzipEtag`), as RFC 9110
   * wants of two encodings of one reply.
   */
  etag: string;
  /** The gzipped body's validator (the same as `etag` when weak). */
  gzipEtag: string;
  /** The body gzipped, compressed once on the thread pool on first demand. */
  gzip: () => Promise<Buffer>;
}

export interface ReplyCacheOptions {
  /** Distinct keys (query strings) kept, least recently used dropped first. */
  maxKeys?: number;
  /** Rebuild an entry this old even without a write (replies with time windows or `generatedAt`). */
  maxAgeMs?: number;
  /** Bodies kept in all, in bytes (the newest entry is kept whatever its size). */
  maxBytes?: number;
  /** Strong ETags (`"…"`, one per encoding) rather than weak ones (`W/"…"`). */
  strongEtag?: boolean;
}

/** A body built with its own gzip (e.g. a kept head's deflate and a fresh tail, see gzip-tail.ts). */
export interface PreparedBody {
  body: Buffer;
  gzip: () => Promise<Buffer>;
}

/**
 * Serialised replies of a read endpoint, one per key (its normalised query), kept until
 * `stamp()` moves. With 20 concurrent clients on one event loop a reply's p95 is about 20x what
 * it costs to build, and building was what cost: /api/summary 1.2 s p95, /api/findings 0.6 s,
 * /api/topology 4 s at 10k GPUs (pnpm bench, serve stage). A hit costs the stamp (one O(1)
 * query, see db/stamps.ts) and a Buffer write.
 */
export class ReplyCache {
  private readonly entries = new Map<string, CachedReply>();
  private stamped: string | null = null;
  private readonly maxKeys: number;
  private readonly maxAgeMs: number;
  private readonly maxBytes: number;
  private bytes = 0;
  private readonly strong: boolean;

  constructor(
    private readonly stamp: () => string,
    opts: ReplyCacheOptions = {},
  ) {
    this.maxKeys = opts.maxKeys ?? 32;
    this.maxAgeMs = opts.maxAgeMs ?? Infinity;
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
    this.strong = opts.strongEtag ?? false;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `key`, built with `build()` (then JSON-serialised) if missing or stale. */
  get(key: string, build: () => unknown, now = Date.now()): CachedReply {
    return this.getJson(key, () => JSON.stringify(build()), now);
  }

  /**
   * As `get`, for a builder that returns the JSON itself (e.g. assembled by SQLite), as text or
   * as UTF-8 bytes (then kept as they are, not copied), or as bytes with their own gzip.
   */
  getJson(key: string, buildJson: () => string | Buffer | PreparedBody, now = Date.now()): CachedReply {
    // The stamp first: what the build reads is then at least as new as the stamp it is kept under.
    const s = this.stamp();
    if (s !== this.stamped) {
      this.entries.clear();
      this.bytes = 0;
      this.stamped = s;
    }
    let e = this.entries.get(key);
    if (e && now - e.builtAt <= this.maxAgeMs) {
      // Most recently used last: Map iteration order is insertion order.
      this.entries.delete(key);
      this.entries.set(key, e);
      return e;
    }
    const json = buildJson();
    e =
      typeof json === 'string' || Buffer.isBuffer(json)
        ? entry(typeof json === 'string' ? Buffer.from(json) : json, now, this.strong)
        : entry(json.body, now, this.strong, json.gzip);
    this.drop(key);
    this.entries.set(key, e);
    this.bytes += e.body.length;
    while (this.entries.size > this.maxKeys || (this.bytes > this.maxBytes && this.entries.size > 1))
      this.drop(this.entries.keys().next().value!);
    return e;
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.bytes -= e.body.length;
    this.entries.delete(key);
  }

  /**
   * Sends the entry for `key` as JSON (gzipped when the client accepts it and the body is
   * large). The bytes are what `JSON.stringify` of its reply gives: sent as a Buffer, they skip
   * the route's response schema (fast-json-stringify, 8.7x slower than JSON.stringify on a
   * topology), which documents them and which tests check them against (reply-check.ts).
   */
  send(req: FastifyRequest, reply: FastifyReply, key: string, build: () => unknown): Promise<FastifyReply> {
    return sendJson(req, reply, this.get(key, build));
  }

  /** As `send`, with `getJson`'s builder. */
  sendJson(
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    buildJson: () => string | Buffer | PreparedBody,
  ): Promise<FastifyReply> {
    return sendJson(req, reply, this.getJson(key, buildJson));
  }
}

/**
 * Sends a cached reply: 304 when the client already has it (a browser revalidates with the
 * ETag), gzipped when accepted and worth it (the 10 MB topology of 10k GPUs is 0.5 MB).
 */
export async function sendJson(req: FastifyRequest, reply: FastifyReply, e: CachedReply): Promise<FastifyReply> {
  const large = e.body.length >= GZIP_MIN_BYTES;
  const gzipped = large && acceptsGzip(req.headers['accept-encoding']);
  reply.type('application/json; charset=utf-8').header('etag', gzipped ? e.gzipEtag : e.etag);
  if (large) reply.header('vary', 'accept-encoding');
  // Either encoding's tag revalidates: If-None-Match compares weakly (RFC 9110, 13.1.2).
  const inm = req.headers['if-none-match'];
  if (matches(inm, e.etag) || matches(inm, e.gzipEtag)) return reply.code(304).send();
  if (!gzipped) return reply.send(e.body);
  const gz = await e.gzip();
  return reply.header('content-encoding', 'gzip').send(gz);
}

/** `Accept-Encoding` allows gzip: listed (or `*`) without `q=0`. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const tag = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => tag(t) === tag(etag));
}

const BOOT = Date.now().toString(36);
let builds = 0;

function entry(body: Buffer, builtAt: number, strong: boolean, gzipOf?: () => Promise<Buffer>): CachedReply {
  let gz: Promise<Buffer> | null = null;
  const tag = `${BOOT}-${(++builds).toString(36)}`;
  return {
    body,
    builtAt,
    etag: strong ? `"${tag}"` : `W/"${tag}"`,
    gzipEtag: strong ? `"${tag}-gz"` : `W/"${tag}"`,
    gzip: () => (gz ??= gzipOf ? gzipOf() : gzipAsync(body, { level: 6 })),
  };
}
