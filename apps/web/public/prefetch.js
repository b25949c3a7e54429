// Starts GET /api/topology as soon as the HTML names this file, when the page opened is the
// topology view: at 45k GPUs the request otherwise waited for the app's bundle to download
// and run (0.5-1 s) before the lazy route asked for it. The app claims this one request
// (src/api/prefetch.ts) and reads it as it reads any reply (src/api/client.ts), so it is the
// same request, never a second download; the headers are those of client.ts, checked by
// src/api/prefetch.test.ts. A file, not an inline <script>: the CSP allows 'self' only.
//
// The built page also names the view's layout worker and chunk (<meta name="ibwatch-topology">,
// written by vite.config.ts). Then this script loads the view's chunk and starts that worker,
// which sends the request itself: the parse and layout run on another core as the bytes arrive,
// while the main bundle loads (src/features/topology/topology-job.ts takes the answer). The
// options are those of topology-job.ts jobOptions; the app ignores an answer made for others.
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
  const send = () => fetch(path, { method: 'GET', headers });
  const early = { path, at: Date.now(), res: null };
  window.__ibwatchPrefetch = early;
  const viaWorker = startWorker(headers);
  early.res = viaWorker ? viaWorker.res : send();
  // Claimed by the app, which reports a failure; unclaimed, it must not be "unhandled".
  early.res.catch(() => undefined);
  if (viaWorker) early.frame = viaWorker.frame;

  /** The view's worker, sending the request itself (worker-ask.ts), or null. */
  function startWorker(headers) {
    let files = null;
    try {
      const meta = typeof document === 'undefined' ? null : document.querySelector('meta[name="ibwatch-topology"]');
      files = meta ? JSON.parse(meta.getAttribute('content') ?? '') : null;
    } catch {
      files = null;
    }
    if (!files || typeof files.worker !== 'string' || !Array.isArray(files.chunks)) return null;
    for (const href of files.chunks) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    }
    // As router.ts parseQuery reads the query: the last non-empty value of each key.
    const query = {};
    for (const [k, v] of new URLSearchParams(location.search)) if (v !== '') query[k] = v;
    // A URL that selects, highlights or searches needs the whole reply for its first frame.
    if (query.sel || query.host || query.q || typeof Worker !== 'function') return null;
    const groupBy = query.group === 'name' ? 'name' : 'rail';
    let worker;
    try {
      worker = new Worker(files.worker, { type: 'module' });
    } catch {
      return null;
    }
    let reply;
    let answer;
    const res = new Promise((resolve, reject) => (reply = { resolve, reject }));
    const done = new Promise((resolve) => (answer = resolve));
    // performance.now() when the bytes reached the worker: firstRenderMs counts its work.
    let t0 = 0;
    worker.onmessage = ({ data }) => {
      if (data && 'failed' in data) {
        worker.terminate();
        reply.reject(new TypeError(data.failed));
        answer(null);
      } else if (data && 'reply' in data) {
        const { status, statusText, headers: h, bytes, at } = data.reply;
        t0 = at - performance.timeOrigin;
        reply.resolve(new Response(bytes.byteLength > 0 ? bytes : null, { status, statusText, headers: h }));
      } else {
        worker.terminate();
        answer({ t0, answer: data });
      }
    };
    worker.onerror = (e) => {
      worker.terminate();
      if (t0 > 0) return answer({ t0, answer: { ok: false, message: e.message } });
      // The worker did not load: the page sends the request, and lays the reply out later itself.
      send().then(reply.resolve, reply.reject);
      answer(null);
    };
    worker.postMessage({ fetch: { path, headers }, groupBy });
    return { res, frame: { useWorker: true, groupBy, done } };
  }
})();
