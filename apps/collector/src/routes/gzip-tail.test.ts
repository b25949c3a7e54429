import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflatedHead, gzipWithHead } from './gzip-tail.ts';

describe('gzipWithHead', () => {
  it('gzips head + tail as one member that any gunzip reads, the head deflated once', async () => {
    const head = Buffer.from(`{"nodes":${JSON.stringify(Array.from({ length: 5000 }, (_, i) => `node-${i} «ü»`))},`);
    const h = deflatedHead(head);
    for (const tail of ['"problems":[]}', `"problems":[[3,"down","link «down»"]]}`, '']) {
      const gz = await gzipWithHead(h, Buffer.from(tail));
      expect(gunzipSync(gz).toString()).toBe(head.toString() + tail);
      // Not much larger than gzipping it all at once.
      expect(gz.length).toBeLessThan(gzipSync(Buffer.concat([head, Buffer.from(tail)])).length + 64);
    }
    expect(await h.raw()).toBe(await h.raw());
  });
});
