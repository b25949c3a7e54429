// The demo runner's dealings with the collector, against a stand-in HTTP server (the real
// collector and lab: apps/collector/test/demo.integration.test.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findingChanges, waitForCollector, watchFindings } from './demo.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A collector stand-in answering `routes[path]()` as JSON (404 otherwise). */
function fakeCollector(routes: Record<string, () => [number, unknown]>): Promise<string> {
  server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    const [status, body] = route ? route() : [404, { message: 'no route' }];
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return new Promise((done) =>
    server!.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`)),
  );
}

describe('waitForCollector()', () => {
  it('waits until the collector is ready and has stored a PM sweep', async () => {
    let polls = 0;
    const url = await fakeCollector({
      '/api/ready': () => [polls++ < 1 ? 503 : 200, {}],
      '/api/scans?kind=pm': () => [200, polls > 1 ? [{ status: 'ok' }] : []],
    });
    expect(await waitForCollector(url, 't', { timeoutMs: 20_000 })).toBe(true);
    expect(polls).toBeGreaterThanOrEqual(2);
  });

  it('gives up at its deadline saying what it saw last', async () => {
    const url = await fakeCollector({ '/api/ready': () => [503, {}], '/api/scans?kind=pm': () => [200, []] });
    await expect(waitForCollector(url, 't', { timeoutMs: 1500 })).rejects.toThrow(
      /not ready within 1.5 s \(last: \/api\/ready answered 503\)/,
    );
  });

  it('stops at once when the collector process has exited', async () => {
    const url = await fakeCollector({});
    await expect(waitForCollector(url, 't', { timeoutMs: 20_000, pid: 2 ** 22 + 1 })).rejects.toThrow(
      /the collector \(pid \d+\) exited/,
    );
  });

  it('returns false when Ctrl-C aborts the wait', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const t0 = Date.now();
    // Nothing listens on this port: the collector is still starting.
    expect(await waitForCollector('http://127.0.0.1:9', 't', { timeoutMs: 60_000, signal: stop.signal })).toBe(false);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});

describe('watchFindings()', () => {
  it('prints the findings that open and those that leave the active list, not the ones known at start', async () => {
    const f = (id: number, title: string) => ({ id, severity: 'major', kind: 'symbol-errors', title });
    const states = [[f(1, 'known at start')], [f(1, 'known at start'), f(2, 'new one')], [f(2, 'new one')]];
    let poll = 0;
    const url = await fakeCollector({
      '/api/findings?state=active': () => [200, states[Math.min(poll++, states.length - 1)]],
    });
    const lines: string[] = [];
    const stop = new AbortController();
    const watching = watchFindings(url, 't', {
      log: (l) => lines.push(l),
      t0: Date.now(),
      signal: stop.signal,
      everyMs: 20,
    });
    while (poll < 4) await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    await watching;
    expect(lines).toEqual([
      expect.stringMatching(/^0:00 {2}ibwatch: MAJOR symbol-errors: new one$/),
      expect.stringMatching(/^0:00 {2}ibwatch: resolved: known at start$/),
    ]);
  });

  it('prints a finding cleared (no longer observed), one observed again, and one opened already cleared', () => {
    const f = (id: number, title: string, clearedAt: number | null) =>
      [id, { id, severity: 'major', kind: 'link-flap', title, clearedAt }] as const;
    const before = new Map([f(1, 'flapping cable', null), f(2, 'slow link', 5), f(3, 'gone', null)]);
    const after = new Map([f(1, 'flapping cable', 9), f(2, 'slow link', null), f(4, 'brief burst', 8)]);
    expect(findingChanges(before, after)).toEqual([
      'cleared (no longer observed; resolves after the clean period): flapping cable',
      'observed again, MAJOR: slow link',
      'MAJOR link-flap: brief burst',
      'cleared (no longer observed; resolves after the clean period): brief burst',
      'resolved: gone',
    ]);
    expect(findingChanges(after, after)).toEqual([]);
  });

  it('ends with an error when the collector stops answering', async () => {
    let polls = 0;
    // Up for the first poll (what is known at start), then answering 500.
    const url = await fakeCollector({ '/api/findings?state=active': () => (polls++ ? [500, {}] : [200, []]) });
    const watching = watchFindings(url, 't', { log: () => undefined, t0: Date.now(), everyMs: 10 });
    await expect(watching).rejects.toThrow(/the collector stopped answering: \/api\/findings answered 500/);
  });
});
