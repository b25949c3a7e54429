/// <reference types="vitest/config" />
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';

/** The CSS files Vite emitted for a chunk (and inserts before its lazy import resolves). */
function cssOf(f: Rollup.OutputChunk | Rollup.OutputAsset | undefined): string[] {
  return f?.type === 'chunk' ? [...(f.viteMetadata?.importedCss ?? [])] : [];
}

/**
 * Names the topology view's hashed files in the built HTML (`<meta name="ibwatch-topology">`),
 * for public/prefetch.js: opened at /topology, the page then loads the view's chunk and its
 * stylesheet while the app's main bundle is still loading (the stylesheet was otherwise only
 * asked for after the bundle had run, by Vite's preload helper, which holds the lazy import
 * until it is in). A <meta>, not an inline script: the CSP allows 'self' only. Without it (the
 * dev server) prefetch.js only starts the requests.
 */
function topologyMeta(): Plugin {
  return {
    name: 'ibwatch-topology-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const files = Object.values(ctx.bundle ?? {});
        const page = files.find(
          (f) => f.type === 'chunk' && /features\/topology\/TopologyPage\.tsx$/.test(f.facadeModuleId ?? ''),
        );
        const entry = files.find((f) => f.type === 'chunk' && f.isEntry);
        if (!page || page.type !== 'chunk' || !entry || entry.type !== 'chunk')
          throw new Error('ibwatch-topology-meta: the topology page chunk is missing from the build');
        // The page's chunk and those it imports that the main bundle does not already load.
        const chunks = [
          page.fileName,
          ...page.imports.filter((f) => f !== entry.fileName && !entry.imports.includes(f)),
        ];
        // Their stylesheets: Vite's preload helper waits for them before the lazy import resolves.
        const loaded = new Set([...entry.imports, entry.fileName].flatMap((f) => cssOf(ctx.bundle?.[f])));
        const css = [...new Set(chunks.flatMap((f) => cssOf(ctx.bundle?.[f])))].filter((f) => !loaded.has(f));
        const content = JSON.stringify({
          chunks: chunks.map((f) => `/${f}`),
          css: css.map((f) => `/${f}`),
        });
        const attr = content.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
        // Before prefetch.js, which reads it as it runs.
        const at = html.indexOf('<script src="/prefetch.js">');
        if (at < 0) throw new Error('ibwatch-topology-meta: index.html no longer loads /prefetch.js');
        return `${html.slice(0, at)}<meta name="ibwatch-topology" content="${attr}" />\n    ${html.slice(at)}`;
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), topologyMeta()],
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});
