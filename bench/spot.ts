/**
 * `node --import tsx bench/spot.ts [--gpus 10000]`: the quick spot check of the scale figures a
 * user feels first, without the 30-day database of `pnpm bench`. Generates the fabric's ibdiagnet2
 * directory, imports it through the real pipeline (parse + analyse + store, timed by the scan row),
 * starts the real server on that database, and measures in Debian Chromium: navigation to the
 * topology's first canvas frame, pan/zoom frame time, and the overview's first contentful paint.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/collector/src/config.ts';
import { createContext } from '../apps/collector/src/context.ts';
import { writeIbdiagnetDir } from './gen/ibdiagnet.ts';
import { benchFabric, sizeLabel } from './lib/fabric.ts';
import { startServer } from './lib/server.ts';

interface Stats {
  firstRenderMs: number;
  lastFrameMs: number;
  nodes: number;
  links: number;
}
type Page = {
  goto(u: string): Promise<unknown>;
  close(): Promise<void>;
  waitForTimeout(ms: number): Promise<void>;
  waitForFunction(f: () => boolean, a: null, o: { timeout: number }): Promise<unknown>;
  evaluate<T>(f: () => T): Promise<T>;
  getByTestId(id: string): { waitFor(): Promise<void> };
  mouse: {
    move(x: number, y: number, o?: object): Promise<void>;
    wheel(x: number, y: number): Promise<void>;
    down(): Promise<void>;
    up(): Promise<void>;
  };
};

const { values } = parseArgs({
  options: { gpus: { type: 'string', default: '10000' }, runs: { type: 'string', default: '4' } },
});
const gpus = Number(values.gpus);
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), 'ibwatch-spot-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  const fabric = benchFabric(gpus);
  await writeIbdiagnetDir(join(dir, 'run'), fabric, 1);
  const config = loadConfig({
    IBWATCH_SOURCE: 'import-only',
    IBWATCH_DB: join(dir, 'ib.db'),
    IBWATCH_EXPECTED_RATE: '4X HDR',
    IBWATCH_WEB_DIST: resolve(import.meta.dirname, '../apps/web/dist'),
  });
  const ctx = createContext(config);
  const scan = await ctx.scans.importIbdiagnet(join(dir, 'run'), 'cli');
  ctx.db.close();
  console.log(`fabric: ${sizeLabel(fabric)}`);
  console.log(
    `ibdiagnet import (parse + analyse + store): ${scan.durationMs} ms, status ${scan.status}  [target < 5000 ms]`,
  );

  const server = await startServer(
    { IBWATCH_SOURCE: 'import-only', IBWATCH_DB: config.dbFile, IBWATCH_EXPECTED_RATE: '4X HDR' },
    8190,
  );
  const pw = createRequire(resolve(import.meta.dirname, '../e2e/package.json'))('@playwright/test') as {
    chromium: { launch(o: object): Promise<{ newPage(o?: object): Promise<Page>; close(): Promise<void> }> };
  };
  const browser = await pw.chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-quic'],
  });
  try {
    const nav: number[] = [],
      first: number[] = [],
      frame: number[] = [],
      fcp: number[] = [];
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      const t0 = Date.now();
      await page.goto(`${server.url}/topology`);
      await page.waitForFunction(
        () => (globalThis as unknown as { __ibwatchTopoStats?: Stats }).__ibwatchTopoStats !== undefined,
        null,
        { timeout: 60_000 },
      );
      nav.push(Date.now() - t0);
      first.push(
        (await page.evaluate(() => (globalThis as unknown as { __ibwatchTopoStats: Stats }).__ibwatchTopoStats))
          .firstRenderMs,
      );
      await page.mouse.move(800, 500);
      for (let k = 0; k < 5; k++) await page.mouse.wheel(0, -300);
      await page.mouse.down();
      await page.mouse.move(1000, 550, { steps: 10 });
      await page.mouse.up();
      await page.waitForTimeout(300);
      frame.push(
        (await page.evaluate(() => (globalThis as unknown as { __ibwatchTopoStats: Stats }).__ibwatchTopoStats))
          .lastFrameMs,
      );
      await page.goto(`${server.url}/`);
      await page.getByTestId('summary-switches').waitFor();
      fcp.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
      await page.close();
    }
    console.log(
      `topology: navigation to first canvas frame median ${median(nav)} ms (runs ${nav.join(', ')})  [target < 3000 ms]`,
    );
    console.log(
      `topology: canvas first render median ${Math.round(median(first))} ms; pan/zoom frame median ${median(frame).toFixed(1)} ms`,
    );
    console.log(`overview: first contentful paint median ${Math.round(median(fcp))} ms  [target < 1000 ms]`);
  } finally {
    await browser.close();
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
