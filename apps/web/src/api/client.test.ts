import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, errorMessage } from './client.ts';

afterEach(() => vi.unstubAllGlobals());

function stubFetch(status: number, body: string) {
  const fn = vi.fn(async () => new Response(body, { status }));
  vi.stubGlobal('fetch', fn);
  return fn;
}

describe('errorMessage()', () => {
  it('uses the API message, then error, then the status', () => {
    expect(errorMessage(400, { statusCode: 400, error: 'Bad Request', message: 'querystring/range must be 1h' })).toBe(
      'querystring/range must be 1h',
    );
    expect(errorMessage(404, { error: 'Not Found' })).toBe('Not Found');
    expect(errorMessage(502, '<html>bad gateway</html>', 'Bad Gateway')).toBe('HTTP 502 Bad Gateway');
  });
  it('says what a 401 means', () => {
    expect(errorMessage(401, { message: 'Unauthorized' })).toBe('token missing or wrong');
  });
});

describe('api', () => {
  it('get() returns parsed JSON', async () => {
    stubFetch(200, '{"status":"ok"}');
    await expect(api.get('/api/health')).resolves.toEqual({ status: 'ok' });
  });
  it('throws ApiError with the API message', async () => {
    stubFetch(404, '{"statusCode":404,"error":"Not Found","message":"no port 0x01/9"}');
    const e = await api.get('/api/ports/0x01/9').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(404);
    expect((e as ApiError).message).toBe('no port 0x01/9');
  });
  it('turns a network failure into status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const e = (await api.get('/api/summary').catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(0);
    expect(e.message).toContain('cannot reach the collector');
  });
  it('post() sends JSON and accepts an empty reply', async () => {
    const f = stubFetch(200, '');
    await expect(api.post('/api/findings/3/resolve')).resolves.toBeUndefined();
    const init = f.mock.calls[0] as unknown as [string, RequestInit];
    expect(init[1].method).toBe('POST');
    expect(init[1].body).toBe('{}');
  });
});

/** A localStorage for the node test environment (the token lives there in the browser). */
function stubStorage(entries: Record<string, string>) {
  const m = new Map(Object.entries(entries));
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => m.set(k, v),
    removeItem: (k: string) => m.delete(k),
  });
}

describe('the token', () => {
  it('goes with reads as well as writes, so a collector with IBWATCH_READS_NEED_TOKEN can be browsed', async () => {
    stubStorage({ 'ibwatch.token': 'reader-token-0123456789' });
    const f = stubFetch(200, '{}');
    await api.get('/api/summary');
    await api.post('/api/scans', { kind: 'pm' });
    for (const call of f.mock.calls as unknown as [string, RequestInit][]) {
      expect((call[1].headers as Record<string, string>).Authorization).toBe('Bearer reader-token-0123456789');
    }
  });
  it('is not sent when none is set', async () => {
    stubStorage({});
    const f = stubFetch(200, '{}');
    await api.get('/api/summary');
    const call = f.mock.calls[0] as unknown as [string, RequestInit];
    expect((call[1].headers as Record<string, string>).Authorization).toBeUndefined();
  });
});
