// Starts GET /api/topology as soon as the HTML names this file, when the page opened is the
// topology view: at 45k GPUs the request otherwise waited for the app's bundle to download
// and run (0.5-1 s) before the lazy route asked for it. The app claims this one request
// (src/api/prefetch.ts) and reads it as it reads any reply (src/api/client.ts), so it is the
// same request, never a second download; the headers are those of client.ts, checked by
// src/api/prefetch.test.ts. A file, not an inline <script>: the CSP allows 'self' only.
//
// The built page also names the view's layout worker and chunk (<meta name="ibwatch-topology">,
// written by vite.config.ts). Then this script starts that worker too and hands it the reply's
// bytes as they arrive, and loads the view's chunk and stylesheet: the parse and layout run on
// another core while the main bundle loads (src/features/topology/topology-job.ts takes the
// answer). The options are those of topology-job.ts jobOptions; the app ignores an answer made
// for others.
(() => {
  const path = '/api/topology';
  if (location.pathname.replace(/\/+$/, '') !== '/topology') return;
  const headers = { Accept: 'application/json' };
  try {
    const token = (localStorage.getItem('ibwatch.token') ?? '').trim();
    if (token) headers.Authorization = `Bearer ${token}`;
  } catch {
    // storage disabled: no token, as getToken() reads it
  }
  const res = fetch(path, { method: 'GET', headers });
  // Claimed by the app, which reports a failure; unclaimed, it must not be "unhandled".
  res.catch(() => undefined);
  const early = { path, at: Date.now(), res };
  window.__ibwatchPrefetch = early;

  let files = null;
  try {
    const meta = typeof document === 'undefined' ? null : document.querySelector('meta[name="ibwatch-topology"]');
    files = meta ? JSON.parse(meta.getAttribute('content') ?? '') : null;
  } catch {
    files = null;
  }
  if (!files || typeof files.worker !== 'string' || !Array.isArray(files.chunks)) return;
  for (const href of files.chunks) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
  // The view's stylesheet, fetched now: Vite's preload helper still adds it (as a stylesheet,
  // with the same CORS mode) and waits for it, now from the cache, before the view renders.
  for (const href of Array.isArray(files.css) ? files.css : []) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'style';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }

  // As router.ts parseQuery reads the query: the last non-empty value of each key.
  const query = {};
  for (const [k, v] of new URLSearchParams(location.search)) if (v !== '') query[k] = v;
  // A URL that selects, highlights or searches needs the whole reply for its first frame.
  if (query.sel || query.host || query.q || typeof Worker !== 'function') return;
  const groupBy = query.group === 'name' ? 'name' : 'rail';
  let worker;
  try {
    worker = new Worker(files.worker, { type: 'module' });
  } catch {
    return;
  }
  // The body is read here, once. The view takes these bytes (early.frame.read); a reader of
  // early.res gets a response with the same status, headers and bytes, made only when asked
  // for: copying 7 MB into a new response and reading it again cost the page's main thread more
  // than the JSON.parse at 45k GPUs.
  const read = res.then(async (r) => {
    if (!r.ok) return { r, bytes: null, t0: performance.now() };
    const bytes = await r.arrayBuffer();
    return { r, bytes, t0: performance.now() };
  });
  read.catch(() => undefined);
  let made = null;
  Object.defineProperty(early, 'res', {
    enumerable: true,
    get() {
      if (!made) {
        made = read.then(({ r, bytes }) =>
          bytes ? new Response(bytes, { status: r.status, statusText: r.statusText, headers: r.headers }) : r,
        );
        made.catch(() => undefined);
      }
      return made;
    },
  });
  const ask = (bytes) =>
    new Promise((done) => {
      const end = (answer) => {
        worker.terminate();
        done(answer);
      };
      worker.onmessage = (e) => end(e.data);
      worker.onerror = (e) => end({ ok: false, message: e.message });
      // A copy: the page keeps its bytes to parse them after the first frame.
      const copy = bytes.slice(0);
      worker.postMessage({ bytes: copy, groupBy }, [copy]);
    });
  const done = read.then(
    async ({ bytes, t0 }) => ({ t0, answer: bytes && bytes.byteLength > 0 ? await ask(bytes) : null }),
    () => null,
  );
  done.then((d) => {
    if (!d?.answer) worker.terminate();
  });
  early.frame = { groupBy, done, read };
})();
