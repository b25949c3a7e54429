// API abuse: requests a script, a scanner or a confused client sends, each with the status it
// must get. Nothing here may answer 500 or store anything it should not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { InjectOptions } from 'fastify';
import { PARSER_FIXTURES, TOKEN } from '../../reliability/support.ts';
import type { HostileCase } from './types.ts';

const GOOD = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');
const auth = { authorization: `Bearer ${TOKEN}` };
let n = 0;
const upload = (body: unknown, headers: Record<string, string> = auth): InjectOptions => ({
  method: 'POST',
  url: '/api/nccl-runs',
  headers: { 'content-type': 'application/json', ...headers },
  payload: typeof body === 'string' ? body : JSON.stringify(body),
});
const text = () => `${GOOD}# api case ${++n}\n`;
const SPINE = '0xb0cf0e0300d33fc0';

/** Another connection holds the write lock while `send` runs (the server's busy timeout shortened). */
export function holdingTheLock(dbFile: string, setBusyTimeout: (ms: number) => void) {
  return async (send: () => Promise<void>) => {
    const other = new Database(dbFile);
    setBusyTimeout(100);
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      await send();
    } finally {
      if (other.inTransaction) other.prepare('ROLLBACK').run();
      other.close();
      setBusyTimeout(5000);
    }
  };
}

export function apiCases(around: { busy: (send: () => Promise<void>) => Promise<void> }): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (name: string, expect: number, mentions: RegExp[], request: () => InjectOptions, extra = {}) =>
    cases.push({ format: 'api', name, expect, mentions, request, ...extra });

  // Uploads (POST /api/nccl-runs).
  add('upload without a token', 401, [], () => upload({ text: text() }, {}));
  add('upload with a wrong token of the right length', 401, [], () =>
    upload({ text: text() }, { authorization: `Bearer ${'x'.repeat(TOKEN.length)}` }),
  );
  add('upload with the token in the query string', 401, [], () => ({
    ...upload({ text: text() }, {}),
    url: `/api/nccl-runs?token=${TOKEN}`,
  }));
  add('upload with "Bearer" and no token', 401, [], () => upload({ text: text() }, { authorization: 'Bearer ' }));
  add('upload body that is not JSON', 400, [], () => upload('{"text": "unterminated'));
  add('upload as text/plain (read as a string: not the object the schema wants)', 400, [/body must be object/], () => ({
    ...upload({ text: text() }),
    headers: { ...auth, 'content-type': 'text/plain' },
  }));
  add('upload without text', 400, [/text/], () => upload({ name: 'x.txt' }));
  add('upload with an empty text', 400, [/text/], () => upload({ text: '' }));
  add('upload with an unknown field', 400, [/body has an unknown field .{0,2}admin/], () =>
    upload({ text: text(), admin: true }),
  );
  add('upload with a __proto__ label', 400, [], () => upload('{"text":"x","labels":{"__proto__":{"polluted":1}}}'));
  add('upload with nodes -1', 400, [/nodes/], () => upload({ text: text(), labels: { nodes: -1 } }));
  add('upload with nodes 1e9', 400, [/nodes/], () => upload({ text: text(), labels: { nodes: 1e9 } }));
  add('upload with a 101-character cluster label', 400, [/cluster/], () =>
    upload({ text: text(), labels: { cluster: 'c'.repeat(101) } }),
  );
  add('upload named "../../etc/passwd"', 400, [/name/], () => upload({ text: text(), name: '../../etc/passwd' }));
  add('upload named with a NUL', 400, [/name/], () => upload({ text: text(), name: 'a\u0000b.txt' }));
  add('upload with a 201-character name', 400, [/name/], () => upload({ text: text(), name: 'n'.repeat(201) }));
  add('upload with startedAt -1', 400, [/startedAt/], () => upload({ text: text(), startedAt: -1 }));
  add('upload with labels nested 10,000 deep', 400, [], () =>
    upload(`{"text":"x","labels":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`),
  );
  add('upload of binary garbage (the data is bad: 422)', 422, [/upload\.txt:1: binary data/], () =>
    upload({ text: '\u0001\u0002\u0003\u0004garbage\u0000\u0000' }),
  );
  add('upload of 40 MB (over the 32 MB body limit)', 413, [], () => upload({ text: 'x'.repeat(40 << 20) }));
  add('a good upload (the baseline)', 201, [], () => upload({ text: text(), labels: { cluster: 'hostile' } }));
  add(
    'a good upload while another process holds the database (busy: 503, retry)',
    503,
    [/database is locked/],
    () => upload({ text: text() }),
    {
      around: around.busy,
    },
  );

  // Reads and other writes.
  add('ports with limit=-1', 400, [/limit/], () => ({ url: '/api/ports?limit=-1', headers: auth }));
  add('ports with limit=1e9', 400, [/limit/], () => ({ url: '/api/ports?limit=1000000000', headers: auth }));
  add('ports with a 10,000-character search', 400, [/q/], () => ({
    url: `/api/ports?q=${'q'.repeat(10_000)}`,
    headers: auth,
  }));
  add('ports sorted by SQL', 400, [/sort/], () => ({
    url: `/api/ports?sort=${encodeURIComponent('name; DROP TABLE ports')}`,
    headers: auth,
  }));
  add('ports searched with SQL wildcards and quotes (no error)', 200, [], () => ({
    url: `/api/ports?q=${encodeURIComponent("%' OR 1=1 --")}`,
    headers: auth,
  }));
  add('a port of a GUID that is not one', 400, [/guid/], () => ({ url: '/api/ports/not-a-guid/1', headers: auth }));
  add('a port number of 99999', 400, [/port/], () => ({ url: `/api/ports/${SPINE}/99999`, headers: auth }));
  add('a port that does not exist', 404, [], () => ({ url: '/api/ports/0x0000000000000001/1', headers: auth }));
  add('port counters over a bogus range', 400, [/range/], () => ({
    url: `/api/ports/${SPINE}/1/counters?range=forever`,
    headers: auth,
  }));
  add('acknowledge a finding that does not exist', 404, [], () => ({
    method: 'POST',
    url: '/api/findings/999999/ack',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ note: 'noc on it' }),
  }));
  add('acknowledge with a 10,000-character note', 400, [/note/], () => ({
    method: 'POST',
    url: '/api/findings/1/ack',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ note: 'b'.repeat(10_000) }),
  }));
  // Who acknowledges is the token's name (IBWATCH_TOKENS); a name in the body is refused, saying so.
  add('acknowledge with a name of its own', 400, [/no longer accepted/], () => ({
    method: 'POST',
    url: '/api/findings/1/ack',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ by: 'b'.repeat(10_000) }),
  }));
  add('scan now of a kind that does not exist', 400, [/kind/], () => ({
    method: 'POST',
    url: '/api/scans',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ kind: 'rm -rf /' }),
  }));
  add('scans with limit=abc', 400, [/limit/], () => ({ url: '/api/scans?limit=abc', headers: auth }));
  add('a scan id of 0', 400, [/id/], () => ({ url: '/api/scans/0', headers: auth }));
  add('DELETE on the scans', 404, [], () => ({ method: 'DELETE', url: '/api/scans', headers: auth }));
  add('a path that climbs out of the web root', 404, [], () => ({ url: '/api/../../../../etc/passwd', headers: auth }));
  add('the bandwidth report from the far future', 200, [], () => ({
    url: '/api/reports/bandwidth?from=253402300799000',
    headers: auth,
  }));
  return cases;
}
