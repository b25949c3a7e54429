// Starts GET /api/topology as soon as the HTML names this file, when the page opened is the
// topology view: at 45k GPUs the request otherwise waited for the app's bundle to download
// and run (0.5-1 s) before the lazy route asked for it. The app claims this one request
// (src/api/prefetch.ts) and reads it as it reads any reply (src/api/client.ts), so it is the
// same request, never a second download; the headers are those of client.ts, checked by
// src/api/prefetch.test.ts. A file, not an inline <script>: the CSP allows 'self' only.
//
// It also starts GET /api/topology/frame, the view's first frame as the collector lays it out
// (src/features/topology/topology-job.ts takes it), for the leaf order the URL asks for: the
// options are those of topology-job.ts jobOptions, and the app ignores a frame made for others.
// The built page names the view's chunk and stylesheet (<meta name="ibwatch-topology">, written
// by vite.config.ts): they are loaded now too, while the main bundle loads.
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
  // As router.ts parseQuery reads the query: the last non-empty value of each key.
  const query = {};
  for (const [k, v] of new URLSearchParams(location.search)) if (v !== '') query[k] = v;
  // The frame first, the small one: the collector answers requests in the order they come. A URL
  // that selects, highlights or searches needs the whole reply for its first frame: no frame.
  let frame;
  if (!(query.sel || query.host || query.q)) {
    const groupBy = query.group === 'name' ? 'name' : 'rail';
    const res = fetch(`${path}/frame?group=${groupBy}`, { method: 'GET', headers });
    res.catch(() => undefined);
    frame = { groupBy, res };
  }
  const res = fetch(path, { method: 'GET', headers });
  // Claimed by the app, which reports a failure; unclaimed, it must not be "unhandled".
  res.catch(() => undefined);
  window.__ibwatchPrefetch = { path, at: Date.now(), res, frame };

  let files = null;
  try {
    const meta = typeof document === 'undefined' ? null : document.querySelector('meta[name="ibwatch-topology"]');
    files = meta ? JSON.parse(meta.getAttribute('content') ?? '') : null;
  } catch {
    files = null;
  }
  for (const href of Array.isArray(files?.chunks) ? files.chunks : []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
  // The view's stylesheet, fetched now: Vite's preload helper still adds it (as a stylesheet,
  // with the same CORS mode) and waits for it, now from the cache, before the view renders.
  for (const href of Array.isArray(files?.css) ? files.css : []) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'style';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
})();
