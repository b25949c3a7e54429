/**
 * `pnpm bench:replies [--gpus 10000] [--runs 15]`: what the routes' reply schemas cost. Imports a
 * generated fabric (as bench:spot does), then answers each JSON route in-process (`inject`) from
 * two apps on the same database: one as shipped, serialising through the response schema
 * (fast-json-stringify), and one whose routes lost their response schema at registration, which
 * serialises with JSON.stringify as every route did before the contract. Prints the median time
 * and the body size per route, and the ratio schema / JSON.stringify.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { makeTempDir, removeDir } from '@ibwatch/testkit';
import { buildApp } from '../apps/collector/src/app.ts';
import { loadConfig } from '../apps/collector/src/config.ts';
import { createContext } from '../apps/collector/src/context.ts';
import { writeIbdiagnetDir } from '../packages/parsers/bench/generate.ts';
import { benchFabric, sizeLabel } from '../packages/parsers/bench/fabric.ts';
import { API_REPLIES, type ApiRoute } from '../packages/fabric/src/api-schemas.ts';
import { runMain } from './lib/stage.ts';
import { median } from './lib/stats.ts';

type FastifyInstance = Awaited<ReturnType<typeof buildApp>>;

const ROUTES = [
  '/api/ports?limit=1000',
  '/api/sms',
  '/api/scans?limit=1000',
  '/api/findings/1',
  '/api/nccl/runs',
  '/api/fleet',
  '/api/topology',
  '/api/summary',
  '/api/worklist',
];

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { gpus: { type: 'string', default: '10000' }, runs: { type: 'string', default: '15' } },
  });
  const gpus = Number(values.gpus);
  const runs = Number(values.runs);
  const dir = makeTempDir('ibwatch-replies');
  try {
    const fabric = benchFabric(gpus);
    await writeIbdiagnetDir(join(dir, 'run'), fabric, 1);
    const config = loadConfig({
      IBWATCH_SOURCE: 'import-only',
      IBWATCH_DB: join(dir, 'ib.db'),
      IBWATCH_EXPECTED_RATE: '4X HDR',
      IBWATCH_WEB_DIST: join(dir, 'no-web'),
    });
    const ctx = createContext(config);
    const scan = await ctx.scans.importIbdiagnet(join(dir, 'run'), 'cli');
    if (scan.status === 'failed') throw new Error(`the ibdiagnet import failed: ${scan.error}`);
    const deps = { config, db: ctx.db, scans: ctx.scans, names: ctx.names };
    const shipped = await buildApp(deps);
    // What each handler returned, for timing the two serialisers alone (without the query).
    const values = new Map<string, unknown>();
    shipped.addHook('preSerialization', async (req, _reply, payload) => {
      values.set(req.url, payload);
      return payload;
    });
    const unschematised = await buildApp({
      ...deps,
      onRoute: (r) => {
        if (r.schema) r.schema = { ...r.schema, response: undefined };
      },
    });
    console.log(`${sizeLabel(fabric)}; median of ${runs} requests each (ms), after 3 warm-up requests`);
    console.log('route | bytes | schema (ms) | JSON.stringify (ms) | ratio');
    for (const url of ROUTES) {
      const a = await time(shipped, url, runs);
      const b = await time(unschematised, url, runs);
      // Equal but for the clock (generatedAt, uptime) and the order of keys (the schema's): the
      // schema dropped and coerced nothing.
      if (canonical(a.body) !== canonical(b.body)) console.log(`  ${url}: the two bodies differ`);
      // Cached routes send bytes they built: their value is the parsed body.
      if (!values.has(url)) values.set(url, JSON.parse(a.body));
      console.log(`${url} | ${a.body.length} | ${a.ms.toFixed(2)} | ${b.ms.toFixed(2)} | ${(a.ms / b.ms).toFixed(2)}`);
    }
    const head = 'serialiser alone, on the value the handler returned (or the cached body parsed)';
    console.log(`${head} | schema (ms) | JSON.stringify (ms) | ratio`);
    const fjs = fastJsonStringify();
    for (const [url, value] of values) {
      const route = `GET ${url.split('?')[0]}` as ApiRoute;
      if (!API_REPLIES[route]) continue;
      const serialise = fjs(API_REPLIES[route]);
      const a = timeSync(() => serialise(value), runs * 4);
      const b = timeSync(() => JSON.stringify(value), runs * 4);
      console.log(`${url} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(a / b).toFixed(2)}`);
    }
    await shipped.close();
    return 0;
  } finally {
    removeDir(dir);
  }
}

/** Median time to answer `url`, alternating nothing else on the loop; the reply caches stay warm. */
async function time(app: FastifyInstance, url: string, runs: number): Promise<{ ms: number; body: string }> {
  let body = '';
  for (let i = 0; i < 3; i++) body = (await app.inject({ url })).body;
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const res = await app.inject({ url });
    ms.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`${url}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  return { ms: median(ms), body };
}

/** fast-json-stringify as Fastify loads it (not a dependency of ours: Fastify's serializer compiler's). */
function fastJsonStringify(): (schema: object) => (value: unknown) => string {
  const fromCollector = createRequire(resolve(import.meta.dirname, '../apps/collector/package.json'));
  const fromFastify = createRequire(fromCollector.resolve('fastify'));
  const fromCompiler = createRequire(fromFastify.resolve('@fastify/fast-json-stringify-compiler'));
  return fromCompiler('fast-json-stringify') as (schema: object) => (value: unknown) => string;
}

function timeSync(f: () => unknown, runs: number): number {
  for (let i = 0; i < 3; i++) f();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, x]) => [k, sorted(x)]),
        )
      : v;
const canonical = (body: string) =>
  JSON.stringify(sorted(JSON.parse(body)))
    .replace(/\d{13}/g, 'T')
    .replace(/"uptimeS":\d+/g, '');

runMain(main);
