/**
 * Every target of `pnpm bench` and `pnpm bench:spot`, in one table keyed by size band, so that a
 * reader sees them side by side and every stage reads its bound from here.
 * - `10k`: fabrics under 32,000 GPUs, held to the 10k-GPU targets (the 1k and 4k rows too);
 * - `45k`: 32,000 GPUs and more, up to the largest subnet InfiniBand allows (49,151 unicast LIDs:
 *   about 45,000 GPUs, 3,900 switches, 272,000 ports), held to issue 19's targets.
 * Where issue 19 names no bound of its own for a figure, the 45k band keeps the 10k one.
 */
import type { Target } from './stats.ts';

export type Band = '10k' | '45k';

/** The smallest fabric held to the largest-subnet targets. */
export const LARGE_BAND_GPUS = 32_000;

export function bandOf(gpus: number): Band {
  return gpus >= LARGE_BAND_GPUS ? '45k' : '10k';
}

/** A figure's bound: on its value (`op` `value`, in the row's unit), on its ratio to a floor, or both. */
export interface Spec {
  target?: Target;
  ratioMax?: number;
  /** Unit of `target` (the row's unit), for the printed table. */
  unit?: string;
  /** Why this bound (printed by `pnpm bench --targets`). */
  why?: string;
}

const lt = (value: number, unit: string, why?: string): Spec => ({
  target: { op: '<', value },
  unit,
  ...(why ? { why } : {}),
});
const both = (s: Spec): Record<Band, Spec> => ({ '10k': s, '45k': s });

/** Concurrent API clients of the latency figures, per band (issue 19: 50 at the largest subnet). */
export const API_CLIENTS: Record<Band, number> = { '10k': 20, '45k': 50 };

export const TARGETS = {
  'parse.ratio': both({ ratioMax: 3, why: 'floor: Node reading the same bytes and splitting them into lines' }),
  'parse.throughput': both({ target: { op: '>=', value: 50 }, unit: 'MB/s' }),
  'ibdiagnet.import': both(lt(5000, 'ms', 'parse + analyse + store, the first import and the next hourly one')),
  'ibdiagnet.firmware': both(lt(500, 'ms', 'a cold GET /api/firmware after an import')),
  'pm.store': {
    '10k': { target: { op: '<', value: 1000 }, unit: 'ms', ratioMax: 2, why: 'floor: the sweep inserted raw' },
    '45k': { target: { op: '<', value: 1000 }, unit: 'ms', ratioMax: 1, why: "storePm <= 1x the sweep's raw insert" },
  },
  'pm.store-written': both(lt(1000, 'ms', 'the stricter floor is shown for information')),
  'pm.scan': both(lt(1000, 'ms', 'parse both ibqueryerrors outputs + store')),
  'db.size-30d': both(lt(5, 'GB', '30 days of 60-s sweeps; --quick (3 days) gets a tenth')),
  'backup.30d': both(lt(300, 's', 'the 30-day database; --quick gets a tenth')),
  'nccl.import': both(lt(100, 'ms')),
  'nccl.report': both(lt(100, 'ms')),
  'nccl.run-page': both(lt(1000, 'ms')),
  'api.p95': { '10k': lt(100, 'ms', '20 clients while sweeping'), '45k': lt(50, 'ms', '50 clients while sweeping') },
  'api.history-p95': {
    '10k': lt(30, 'ms', "one port's 30-day history"),
    '45k': lt(50, 'ms', '50 clients while sweeping'),
  },
  'api.sweep-in-server': both(lt(10_000, 'ms', 'well inside the 20-s sweep period of the stage')),
  'rss.max': { '10k': lt(500, 'MB', 'serving + sweeping'), '45k': lt(1000, 'MB', 'serving + sweeping') },
  'render.first': both(lt(3000, 'ms')),
  'render.navigation': { '10k': lt(3000, 'ms'), '45k': lt(2000, 'ms', 'navigation to the first canvas frame') },
  'render.frame': both(lt(16, 'ms', 'a frame of a 60 Hz screen')),
  'render.fcp': both(lt(1000, 'ms', 'overview: first contentful paint')),
  'render.status': both(lt(3000, 'ms', "overview: the fabric's status word from the latest summary")),
  'metrics.problem': { '10k': lt(200, 'ms'), '45k': lt(500, 'ms') },
  // Issue 19 bounds /metrics at 45k GPUs at 500 ms; the scrape without per-port series does a
  // part of what the problem-ports scrape does, so it gets the same bound there.
  'metrics.off': { '10k': lt(200, 'ms'), '45k': lt(500, 'ms', "issue 19's /metrics bound at this size") },
  'metrics.all': both(lt(10_000, 'ms', "Prometheus' default scrape_timeout")),
  'cadence.cpu': both(lt(10, '%', 'of one core per 10-s PM interval, sustained')),
  'live-lab.ratio': both({
    ratioMax: 1.0,
    why: 'issue 19: a PM sweep through ibwatch <= 1.0x the bare tool runs (checked strictly: 1.00x is MISSED)',
  }),
  'live-lab.bring-up': both(lt(60, 's', 'ibsim + both OpenSMs')),
} satisfies Record<string, Record<Band, Spec>>;

export type FigureId = keyof typeof TARGETS;

/** The bound of `id` for a fabric of `gpus` GPUs. */
export function specFor(id: FigureId, gpus: number): Spec {
  return TARGETS[id][bandOf(gpus)];
}

/** The value bound of `id` (throws when the figure has only a ratio bound). */
export function targetFor(id: FigureId, gpus: number): Target {
  const t = specFor(id, gpus).target;
  if (!t) throw new Error(`${id} has no value target`);
  return t;
}

/** The ratio bound of `id` (throws when the figure has only a value bound). */
export function ratioFor(id: FigureId, gpus: number): number {
  const r = specFor(id, gpus).ratioMax;
  if (r === undefined) throw new Error(`${id} has no ratio target`);
  return r;
}

/** The whole table as Markdown, one row per figure, a column per band (`pnpm bench --targets`). */
export function targetsMarkdown(): string {
  const text = (s: Spec) =>
    [
      s.target ? `${s.target.op} ${s.target.value} ${s.unit ?? ''}`.trimEnd() : '',
      s.ratioMax !== undefined ? `< ${s.ratioMax}x floor` : '',
    ]
      .filter(Boolean)
      .join(', ');
  const lines = ['| figure | < 32k GPUs (10k band) | >= 32k GPUs (45k band) | why |', '|---|---|---|---|'];
  for (const [id, bands] of Object.entries(TARGETS) as [FigureId, Record<Band, Spec>][])
    lines.push(
      `| ${id} | ${text(bands['10k'])} | ${text(bands['45k'])} | ${[bands['10k'].why, bands['45k'].why]
        .filter((w, i, a) => w && a.indexOf(w) === i)
        .join('; ')} |`,
    );
  return lines.join('\n');
}
