// Starts GET /api/topology as soon as the HTML names this file, when the page opened is the
// topology view: at 45k GPUs the request otherwise waited for the app's bundle to download
// and run (0.5-1 s) before the lazy route asked for it. The app claims this one request
// (src/api/prefetch.ts) and reads it as it reads any reply (src/api/client.ts), so it is the
// same request, never a second download; the headers are those of client.ts, checked by
// src/api/prefetch.test.ts. A file, not an inline <script>: the CSP allows 'self' only.
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
  window.__ibwatchPrefetch = { path, at: Date.now(), res };
})();
