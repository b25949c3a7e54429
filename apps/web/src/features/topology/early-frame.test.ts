import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { topologyColumns } from '@ibwatch/fabric';
import { topologyFrame } from '@ibwatch/fabric/topology-view';
import { ndrWithSharp } from '@ibwatch/fabric/topology-view/fixtures';
import { readReply } from '../../api/client.ts';
import { parseQuery } from '../../router.ts';
import { jobOptions, startJob, TOPOLOGY_PATH } from './topology-job.ts';

const EARLY = readFileSync(join(import.meta.dirname, '../../../public/prefetch.js'), 'utf8');
const FILES = { chunks: ['/assets/TopologyPage-def.js'], css: ['/assets/TopologyPage-ghi.css'] };
const COLUMNS = topologyColumns(ndrWithSharp());
const REPLY = JSON.stringify(COLUMNS);
const FRAMES = { rail: topologyFrame(COLUMNS, 'rail'), name: topologyFrame(COLUMNS, 'name') };

/** The collector, as fetch sees it: the reply, and its first frame per `group`. */
function collector(frame: (group: string) => Response | null = (g) => json(FRAMES[g as 'rail' | 'name'])) {
  return vi.fn(async (url: string) => {
    const u = new URL(url, 'http://ibwatch.test');
    if (u.pathname === '/api/topology') return json(REPLY);
    const got = u.pathname === '/api/topology/frame' ? frame(u.searchParams.get('group') ?? '') : null;
    return got ?? new Response('{"message":"Not Found"}', { status: 404 });
  });
}
const json = (body: unknown) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const paths = (fn: ReturnType<typeof collector>) => fn.mock.calls.map(([url]) => url);

/** Runs public/prefetch.js as the built page's <head> does (with its <meta>, or without). */
function runEarly(url: string, fetch: ReturnType<typeof collector>, meta: object | null = FILES) {
  const location = new URL(url, 'http://ibwatch.test');
  const links: { rel: string; href: string; crossOrigin: string | null; as?: string }[] = [];
  const document = {
    querySelector: (sel: string) =>
      sel === 'meta[name="ibwatch-topology"]' && meta ? { getAttribute: () => JSON.stringify(meta) } : null,
    createElement: () => ({ rel: '', href: '', crossOrigin: null }),
    head: { appendChild: (l: (typeof links)[number]) => links.push(l) },
  };
  const window: Record<string, unknown> = {};
  runInNewContext(EARLY, {
    location,
    localStorage: { getItem: () => null },
    fetch,
    window,
    Date,
    document,
    URLSearchParams,
  });
  (globalThis as Record<string, unknown>).__ibwatchPrefetch = window.__ibwatchPrefetch;
  return links;
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as { __ibwatchPrefetch?: unknown }).__ibwatchPrefetch;
});

describe('the first frame public/prefetch.js asks for', () => {
  it('is fetched with the reply before the app runs, and the view’s job takes both', async () => {
    const early = collector();
    const links = runEarly('/topology?group=name', early);
    // The view's chunk and its stylesheet, in the CORS mode Vite's preload helper asks for them.
    expect(links).toEqual([
      { rel: 'modulepreload', href: FILES.chunks[0], crossOrigin: '' },
      { rel: 'preload', as: 'style', href: FILES.css[0], crossOrigin: '' },
    ]);
    expect(paths(early)).toEqual(['/api/topology/frame?group=name', '/api/topology']);
    const app = collector();
    vi.stubGlobal('fetch', app);
    const job = startJob(jobOptions(parseQuery('?group=name')));
    const frame = await job.frame;
    expect(frame?.reply).toEqual(FRAMES.name);
    expect(frame?.t0).toBeLessThanOrEqual(performance.now());
    expect(await readReply(TOPOLOGY_PATH, job.sent)).toEqual(COLUMNS);
    // The same two requests: the app sent none of its own.
    expect(app).not.toHaveBeenCalled();
  });

  it('is not taken for another leaf order: the job asks for its own, and still takes the reply', async () => {
    runEarly('/topology', collector());
    const app = collector();
    vi.stubGlobal('fetch', app);
    const job = startJob(jobOptions(parseQuery('?group=name')));
    expect((await job.frame)?.reply).toEqual(FRAMES.name);
    expect(paths(app)).toEqual(['/api/topology/frame?group=name']);
    expect(await readReply(TOPOLOGY_PATH, job.sent)).toEqual(COLUMNS);
  });

  it('is not asked for by a deep link, which needs the reply for its first frame', async () => {
    for (const url of ['/topology?sel=l:1', '/topology?host=gpu1', '/topology?q=leaf']) {
      const early = collector();
      runEarly(url, early);
      expect(paths(early), url).toEqual(['/api/topology']);
      const app = collector();
      vi.stubGlobal('fetch', app);
      const job = startJob(jobOptions(parseQuery(new URL(url, 'http://x').search)));
      expect(await job.frame).toBeNull();
      expect(await readReply(TOPOLOGY_PATH, job.sent)).toEqual(COLUMNS);
      expect(app).not.toHaveBeenCalled();
    }
    // Without the <meta> (the dev server) the requests go all the same, with nothing preloaded.
    const early = collector();
    expect(runEarly('/topology', early, null)).toEqual([]);
    expect(paths(early)).toHaveLength(2);
  });

  it('is no frame when the collector has none to give: the reply is drawn, its errors reported', async () => {
    // A collector without the route (404), or one that failed: the frame is null, the reply read as any.
    for (const frame of [() => null, () => new Response('{"message":"boom"}', { status: 500 })]) {
      vi.stubGlobal('fetch', collector(frame));
      const job = startJob(jobOptions(parseQuery('')));
      expect(await job.frame).toBeNull();
      expect(await readReply(TOPOLOGY_PATH, job.sent)).toEqual(COLUMNS);
    }
    vi.stubGlobal('fetch', async () => Promise.reject(new TypeError('Failed to fetch')));
    const job = startJob(jobOptions(parseQuery('')));
    expect(await job.frame).toBeNull();
    await expect(readReply(TOPOLOGY_PATH, job.sent)).rejects.toThrow('cannot reach the collector');
  });
});
