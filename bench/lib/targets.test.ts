import { describe, expect, it } from 'vitest';
import {
  API_CLIENTS,
  bandOf,
  LARGE_BAND_GPUS,
  ratioFor,
  specFor,
  TARGETS,
  targetFor,
  targetsMarkdown,
} from './targets.ts';

describe('size bands', () => {
  it('puts fabrics under 32k GPUs in the 10k band and 32k and more in the 45k band', () => {
    expect(bandOf(1000)).toBe('10k');
    expect(bandOf(10_000)).toBe('10k');
    expect(bandOf(LARGE_BAND_GPUS - 8)).toBe('10k');
    expect(bandOf(LARGE_BAND_GPUS)).toBe('45k');
    expect(bandOf(45_000)).toBe('45k');
  });
});

describe('target lookup', () => {
  it("gives the 10k band the existing targets and the 45k band issue 19's", () => {
    expect(targetFor('ibdiagnet.import', 10_000)).toEqual({ op: '<', value: 5000 });
    expect(targetFor('ibdiagnet.import', 45_000)).toEqual({ op: '<', value: 5000 });
    expect(targetFor('api.p95', 10_000)).toEqual({ op: '<', value: 100 });
    expect(targetFor('api.p95', 45_000)).toEqual({ op: '<', value: 50 });
    expect(targetFor('rss.max', 4000)).toEqual({ op: '<', value: 500 });
    expect(targetFor('rss.max', 32_000)).toEqual({ op: '<', value: 1000 });
    expect(targetFor('render.navigation', 10_000).value).toBe(3000);
    expect(targetFor('render.navigation', 45_000).value).toBe(2000);
    expect(targetFor('metrics.problem', 10_000).value).toBe(200);
    expect(targetFor('metrics.problem', 45_000).value).toBe(500);
    expect(targetFor('db.size-30d', 45_000)).toEqual({ op: '<', value: 5 });
    expect(targetFor('cadence.cpu', 10_000)).toEqual({ op: '<', value: 10 });
  });

  it('holds storePm to 2x the raw insert at 10k and to 1x at 45k, both under a second', () => {
    expect(ratioFor('pm.store', 10_000)).toBe(2);
    expect(ratioFor('pm.store', 45_000)).toBe(1);
    expect(targetFor('pm.store', 45_000).value).toBe(1000);
  });

  it('refuses a bound a figure does not have', () => {
    expect(() => ratioFor('api.p95', 10_000)).toThrow(/no ratio target/);
    expect(() => targetFor('parse.ratio', 10_000)).toThrow(/no value target/);
  });

  it('gives every figure a bound in both bands', () => {
    for (const id of Object.keys(TARGETS) as (keyof typeof TARGETS)[])
      for (const gpus of [1000, 45_000]) {
        const s = specFor(id, gpus);
        expect(s.target !== undefined || s.ratioMax !== undefined, `${id} at ${gpus}`).toBe(true);
      }
  });

  it('loads the API with 20 clients at 10k and 50 at 45k', () => {
    expect(API_CLIENTS[bandOf(10_000)]).toBe(20);
    expect(API_CLIENTS[bandOf(45_000)]).toBe(50);
  });

  it('prints one Markdown row per figure with both bands', () => {
    const md = targetsMarkdown().split('\n');
    expect(md).toHaveLength(2 + Object.keys(TARGETS).length);
    expect(md.find((l) => l.startsWith('| api.p95 |'))).toMatch(/\| < 100 ms \| < 50 ms \|/);
    expect(md.find((l) => l.startsWith('| pm.store |'))).toMatch(/< 1000 ms, < 2x floor \| < 1000 ms, < 1x floor/);
  });
});
