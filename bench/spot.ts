/**
 * `pnpm bench:spot [--gpus 10000] [--runs 4]`: the quick spot check of the scale figures a user
 * feels first, without the 30-day database of `pnpm bench`. Generates the fabric's ibdiagnet2
 * directory, imports it through the real pipeline (parse + analyse + store, timed by the scan row),
 * starts the real server on that database, and measures in Debian Chromium: navigation to the
 * topology's first canvas frame, pan/zoom frame time, and the overview's first contentful paint.
 * Prints the same table as `pnpm bench`, each figure with its target and ok or MISSED. Builds the
 * dashboard first when it is stale, and stops within seconds when Chromium is missing.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeTempDir, removeDir } from '@ibwatch/testkit';
import { loadConfig } from '../apps/collector/src/config.ts';
import { createContext } from '../apps/collector/src/context.ts';
import { writeIbdiagnetDir } from '../packages/parsers/bench/generate.ts';
import { launchChromium, measureTopology, overviewFirstPaint } from './lib/browser.ts';
import { benchFabric, sizeLabel } from '../packages/parsers/bench/fabric.ts';
import { preflight, WEB_DIST } from './lib/preflight.ts';
import { freePort, startServer } from './lib/server.ts';
import { runMain } from './lib/stage.ts';
import { median, type Row, table, verdict } from './lib/stats.ts';
import { topologyRows } from './stages/serve.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      gpus: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '4' },
      markdown: { type: 'boolean', default: false },
    },
  });
  const gpus = Number(values.gpus);
  const runs = Number(values.runs);
  try {
    await preflight(['chromium', 'web']);
  } catch (err) {
    console.error(`bench:spot: ${(err as Error).message}`);
    return 2;
  }
  const dir = makeTempDir('ibwatch-spot');
  const rows: Row[] = [];
  try {
    const fabric = benchFabric(gpus);
    const size = sizeLabel(fabric);
    await writeIbdiagnetDir(join(dir, 'run'), fabric, 1);
    const config = loadConfig({
      IBWATCH_SOURCE: 'import-only',
      IBWATCH_DB: join(dir, 'ib.db'),
      IBWATCH_EXPECTED_RATE: '4X HDR',
      IBWATCH_WEB_DIST: WEB_DIST,
    });
    const ctx = createContext(config);
    const scan = await ctx.scans.importIbdiagnet(join(dir, 'run'), 'cli');
    ctx.db.close();
    if (scan.status === 'failed') throw new Error(`the ibdiagnet import failed: ${scan.error}`);
    rows.push({
      stage: 'import',
      what: 'first ibdiagnet run into an empty database: parse + analyse + store (the scan row)',
      size,
      value: scan.durationMs ?? Number.NaN,
      unit: 'ms',
      runs: 1,
      target: { op: '<', value: 5000 },
    });

    const server = await startServer(
      { IBWATCH_SOURCE: 'import-only', IBWATCH_DB: config.dbFile, IBWATCH_EXPECTED_RATE: '4X HDR' },
      await freePort(),
    );
    const browser = await launchChromium();
    try {
      const nav: number[] = [];
      const first: number[] = [];
      const frames: number[] = [];
      const fcp: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = await measureTopology(browser, server.url, 5);
        nav.push(t.navigationMs);
        first.push(t.firstRenderMs);
        frames.push(...t.frameMs);
        fcp.push(await overviewFirstPaint(browser, server.url));
      }
      rows.push(...topologyRows(size, nav, first, frames));
      rows.push({
        stage: 'render',
        what: 'overview: first contentful paint',
        size,
        value: median(fcp),
        unit: 'ms',
        runs: fcp.length,
        target: { op: '<', value: 1000 },
        note: `runs ${fcp.map((x) => x.toFixed(0)).join(', ')} ms`,
      });
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    removeDir(dir);
  }
  console.log(table(rows, values.markdown));
  for (const r of rows) if (r.note) console.log(`  ${r.stage}: ${r.what}: ${r.note}`);
  return rows.every((r) => verdict(r) === 'ok') ? 0 : 1;
}

runMain(main);
