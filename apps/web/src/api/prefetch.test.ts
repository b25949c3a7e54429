import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefetch, takePrefetched } from './prefetch.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('prefetch', () => {
  it('hands the reply to the first reader of that path, once, and only while fresh', async () => {
    const fn = vi.fn(async () => new Response('{"format":2}', { status: 200 }));
    vi.stubGlobal('fetch', fn);
    prefetch('/api/topology');
    expect(fn).toHaveBeenCalledTimes(1);
    expect(takePrefetched('/api/summary')).toBeUndefined();
    const got = takePrefetched('/api/topology');
    expect(await got).toEqual({ format: 2 });
    expect(takePrefetched('/api/topology')).toBeUndefined();

    vi.useFakeTimers({ now: 0 });
    prefetch('/api/topology');
    vi.setSystemTime(60_000);
    expect(takePrefetched('/api/topology')).toBeUndefined();
  });

  it('passes a failure on to its reader', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"no"}', { status: 500 }));
    prefetch('/api/topology');
    await expect(takePrefetched('/api/topology')).rejects.toThrow('no');
  });
});
