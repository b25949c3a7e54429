import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers.ts';
import { REPO_ROOT, tempDir, testConfig } from './test-support.ts';

const WEB = join(REPO_ROOT, 'apps/web');
const indexHtml = readFileSync(join(WEB, 'index.html'), 'utf8');

/** Runs public/theme.js as the browser would, against a fake page; returns the html classes. */
function runThemeScript(search: string, stored: string | null): string[] {
  const classes = new Set<string>();
  runInNewContext(readFileSync(join(WEB, 'public/theme.js'), 'utf8'), {
    URLSearchParams,
    location: { search },
    localStorage: { getItem: (k: string) => (k === 'ibwatch.theme' ? stored : null) },
    document: { documentElement: { classList: { add: (c: string) => classes.add(c) } } },
  });
  return [...classes].sort();
}

describe('the dashboard page under the collector’s CSP', () => {
  it('has no inline script (script-src allows only files from the same origin)', async () => {
    const t = tempDir();
    try {
      const csp = (await securityHeaders(testConfig(t.dir)))['content-security-policy']!;
      const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));
      expect(scriptSrc?.trim()).toBe("script-src 'self'");
    } finally {
      t.cleanup();
    }
    const scripts = [...indexHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs, 'every <script> loads a file').toMatch(/\bsrc="\/[^"]+"/);
      expect(body.trim()).toBe('');
    }
    // The theme runs before the app's module script, from public/ (copied to dist/ as is).
    expect(indexHtml.indexOf('src="/theme.js"')).toBeLessThan(indexHtml.indexOf('type="module"'));
    // So does the topology page's early request (public/prefetch.js; tested in apps/web).
    expect(indexHtml.indexOf('src="/prefetch.js"')).toBeGreaterThan(0);
    expect(indexHtml.indexOf('src="/prefetch.js"')).toBeLessThan(indexHtml.indexOf('type="module"'));
  });

  it('paints a neutral shell before the app runs: loading, nothing about the fabric', () => {
    const root = /<div id="root">([\s\S]*?)<\/div>\s*<script type="module"/.exec(indexHtml)?.[1] ?? '';
    expect(root).toContain('role="status"');
    expect(root).toMatch(/Loading/);
    // No state colour, count or test id: the app replaces all of it on its first render.
    expect(root).not.toMatch(/data-testid|badge|\bok\b|healthy|\d/i);
  });

  it('theme.js brings back the saved dark theme, and kiosk mode, before the first paint', () => {
    expect(runThemeScript('', 'dark')).toEqual(['dark']);
    expect(runThemeScript('', 'light')).toEqual([]);
    expect(runThemeScript('', null)).toEqual([]);
    expect(runThemeScript('?kiosk=1', 'light')).toEqual(['dark', 'kiosk']);
  });
});
