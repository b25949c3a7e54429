import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/open-db.ts';
import { contentStamp, writeStamp } from '../db/stamps.ts';
import { tempDir } from '../test-support.ts';
import { acceptsGzip, GZIP_MIN_BYTES, ReplyCache } from './reply-cache.ts';

let tmp: ReturnType<typeof tempDir>;
let db: Db;
beforeEach(() => {
  tmp = tempDir();
  db = openDb(join(tmp.dir, 'ibwatch.db'));
  db.exec('CREATE TABLE t (v INTEGER); CREATE TABLE other (v INTEGER)');
});
afterEach(() => {
  db.close();
  tmp.cleanup();
});

/** A build that counts its calls and returns what table t holds. */
function counted() {
  const b = {
    calls: 0,
    fn: () => {
      b.calls++;
      return db.prepare('SELECT v FROM t ORDER BY v').pluck().all();
    },
  };
  return b;
}
const json = (e: { body: Buffer }) => JSON.parse(e.body.toString()) as unknown;

describe('ReplyCache', () => {
  it('serves one serialised build until this connection commits a write', () => {
    const cache = new ReplyCache(writeStamp(db));
    const b = counted();
    expect(json(cache.get('', b.fn))).toEqual([]);
    expect(cache.get('', b.fn).body).toBe(cache.get('', b.fn).body);
    expect(b.calls).toBe(1);
    db.prepare('INSERT INTO t VALUES (1)').run();
    expect(json(cache.get('', b.fn))).toEqual([1]);
    expect(b.calls).toBe(2);
  });

  it('sees commits of another connection (data_version)', () => {
    const cache = new ReplyCache(writeStamp(db));
    const b = counted();
    cache.get('', b.fn);
    const other = openDb(join(tmp.dir, 'ibwatch.db'));
    other.prepare('INSERT INTO t VALUES (7)').run();
    other.close();
    expect(json(cache.get('', b.fn))).toEqual([7]);
    expect(b.calls).toBe(2);
  });

  it('keeps one entry per key, and drops every key on a write', () => {
    const cache = new ReplyCache(writeStamp(db));
    const calls: string[] = [];
    const build = (k: string) => () => {
      calls.push(k);
      return k;
    };
    cache.get('?state=open', build('open'));
    cache.get('?state=resolved', build('resolved'));
    expect(json(cache.get('?state=open', build('open')))).toBe('open');
    expect(json(cache.get('?state=resolved', build('resolved')))).toBe('resolved');
    expect(calls).toEqual(['open', 'resolved']);
    db.prepare('INSERT INTO t VALUES (1)').run();
    cache.get('?state=open', build('open'));
    cache.get('?state=resolved', build('resolved'));
    expect(calls).toEqual(['open', 'resolved', 'open', 'resolved']);
  });

  it('holds at most maxKeys entries, dropping the least recently used', () => {
    const cache = new ReplyCache(writeStamp(db), { maxKeys: 2 });
    const calls: string[] = [];
    const build = (k: string) => () => {
      calls.push(k);
      return k;
    };
    cache.get('a', build('a'));
    cache.get('b', build('b'));
    cache.get('a', build('a')); // a is now the most recent
    cache.get('c', build('c')); // evicts b
    expect(cache.size).toBe(2);
    cache.get('a', build('a'));
    cache.get('b', build('b'));
    expect(calls).toEqual(['a', 'b', 'c', 'b']);
  });

  it('holds at most maxBytes of bodies, but always the newest entry', () => {
    const cache = new ReplyCache(writeStamp(db), { maxBytes: 25 });
    cache.get('a', () => 'x'.repeat(8)); // 10 bytes with the quotes
    cache.get('b', () => 'y'.repeat(8));
    expect(cache.size).toBe(2);
    cache.get('c', () => 'z'.repeat(8)); // 30 bytes: a goes
    expect(cache.size).toBe(2);
    cache.get('big', () => 'w'.repeat(100));
    expect(cache.size).toBe(1);
    expect(json(cache.get('big', () => 'rebuilt'))).toBe('w'.repeat(100));
  });

  it('rebuilds an entry older than maxAgeMs without any write', () => {
    const cache = new ReplyCache(writeStamp(db), { maxAgeMs: 5_000 });
    const b = counted();
    cache.get('', b.fn, 1_000);
    cache.get('', b.fn, 6_000);
    expect(b.calls).toBe(1);
    cache.get('', b.fn, 6_001);
    expect(b.calls).toBe(2);
  });

  it('with a content stamp, survives writes to tables it does not read', () => {
    let contentQueries = 0;
    const stamp = contentStamp(db, () => {
      contentQueries++;
      return String(db.prepare('SELECT COUNT(*) FROM t').pluck().get());
    });
    const cache = new ReplyCache(stamp);
    const b = counted();
    cache.get('', b.fn);
    cache.get('', b.fn);
    expect(contentQueries).toBe(1); // no write: the content is not even asked
    db.prepare('INSERT INTO other VALUES (1)').run();
    cache.get('', b.fn);
    expect([b.calls, contentQueries]).toEqual([1, 2]);
    db.prepare('INSERT INTO t VALUES (3)').run();
    expect(json(cache.get('', b.fn))).toEqual([3]);
    expect(b.calls).toBe(2);
  });
});

describe('ReplyCache.send', () => {
  it('sends JSON as built, gzipped when accepted and large, with Vary', async () => {
    const cache = new ReplyCache(writeStamp(db));
    const big = { rows: Array.from({ length: 2_000 }, (_, i) => ({ i, name: `port ${i}` })) };
    const app = Fastify();
    app.get('/big', (req, reply) => cache.send(req, reply, 'big', () => big));
    app.get('/small', (req, reply) => cache.send(req, reply, 'small', () => ({ ok: true })));
    try {
      const plain = await app.inject('/big');
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.json()).toEqual(big);
      expect(plain.rawPayload.length).toBeGreaterThan(GZIP_MIN_BYTES);

      const gz = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(big);

      const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'gzip' } });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });

  it('answers 304 to a client holding the current ETag, 200 once a write changed the reply', async () => {
    const cache = new ReplyCache(writeStamp(db));
    const app = Fastify();
    app.get('/t', (req, reply) => cache.send(req, reply, '', () => db.prepare('SELECT v FROM t').pluck().all()));
    try {
      const first = await app.inject('/t');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/".+"$/);
      const again = await app.inject({ url: '/t', headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      db.prepare('INSERT INTO t VALUES (5)').run();
      const changed = await app.inject({ url: '/t', headers: { 'if-none-match': etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toEqual([5]);
      expect(changed.headers.etag).not.toBe(etag);
    } finally {
      await app.close();
    }
  });

  it('reads Accept-Encoding as RFC 9110 does', () => {
    const cases: [string | undefined, boolean][] = [
      [undefined, false],
      ['', false],
      ['gzip', true],
      ['deflate, gzip;q=0.5', true],
      ['br, GZIP', true],
      ['gzip;q=0', false],
      ['gzip; q=0.0', false],
      ['identity', false],
      ['*', true],
      ['x-gzip', true],
    ];
    for (const [header, want] of cases) expect([header, acceptsGzip(header)]).toEqual([header, want]);
  });
});
