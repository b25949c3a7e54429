// Applies the saved theme before the first paint, so a kiosk screen never flashes white.
// A file of its own, not an inline <script>: the collector's Content-Security-Policy allows
// scripts from 'self' only (apps/collector/src/security-headers.ts), and Chromium refuses an
// inline one ("Executing inline script violates ... script-src 'self'"), which lost dark mode on
// every reload. Classic script, loaded before the app's module: it must run first.
(() => {
  try {
    const kiosk = new URLSearchParams(location.search).get('kiosk') === '1';
    if (kiosk || localStorage.getItem('ibwatch.theme') === 'dark') document.documentElement.classList.add('dark');
    if (kiosk) document.documentElement.classList.add('kiosk');
  } catch {
    // storage disabled: light theme
  }
})();
