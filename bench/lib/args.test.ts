import { describe, expect, it } from 'vitest';
import { parseBenchArgs, parseSpotArgs } from './args.ts';

describe('pnpm bench arguments', () => {
  it('keeps 1k, 4k and 10k without --gpus, 1k and 4k with --quick', () => {
    expect(parseBenchArgs([])).toMatchObject({ big: 10_000, sizes: [1000, 4000, 10_000], runs: 5, only: null });
    expect(parseBenchArgs(['--quick'])).toMatchObject({ big: 4000, sizes: [1000, 4000], runs: 3 });
  });

  it('makes --gpus N the large fabric, reported after the smaller standard sizes', () => {
    expect(parseBenchArgs(['--gpus', '45000'])).toMatchObject({ big: 45_000, sizes: [1000, 4000, 10_000, 45_000] });
    expect(parseBenchArgs(['--gpus', '32000'])).toMatchObject({ big: 32_000, sizes: [1000, 4000, 10_000, 32_000] });
    expect(parseBenchArgs(['--gpus', '2000']).sizes).toEqual([1000, 2000]);
    expect(parseBenchArgs(['--gpus', '4000']).sizes).toEqual([1000, 4000]);
    expect(parseBenchArgs(['--gpus', '1000']).sizes).toEqual([1000]);
  });

  it('reports N alone with --only, and keeps --quick to sizes below 10k', () => {
    expect(parseBenchArgs(['--gpus', '45000', '--only', 'pm, ibdiagnet'])).toMatchObject({
      big: 45_000,
      sizes: [45_000],
      only: ['pm', 'ibdiagnet'],
    });
    expect(parseBenchArgs(['--quick', '--gpus', '45000']).sizes).toEqual([1000, 4000, 45_000]);
    expect(parseBenchArgs(['--only', 'pm']).sizes).toEqual([1000, 4000, 10_000]);
  });

  it('reads the cadence duration and the flags', () => {
    expect(parseBenchArgs([]).cadenceMinutes).toBe(30);
    expect(parseBenchArgs(['--cadence-minutes', '2']).cadenceMinutes).toBe(2);
    expect(parseBenchArgs(['--cadence-minutes', '0.5']).cadenceMinutes).toBe(0.5);
    expect(parseBenchArgs(['--markdown', '--targets'])).toMatchObject({ markdown: true, targets: true });
  });

  it('refuses sizes and durations that make no fabric', () => {
    expect(() => parseBenchArgs(['--gpus', 'many'])).toThrow(/--gpus "many"/);
    expect(() => parseBenchArgs(['--gpus', '500'])).toThrow(/at least 1000/);
    expect(() => parseBenchArgs(['--gpus', '45001'])).toThrow(/multiple of 8/);
    expect(() => parseBenchArgs(['--cadence-minutes', '0'])).toThrow(/positive number/);
    expect(() => parseBenchArgs(['--bogus'])).toThrow();
  });
});

describe('pnpm bench:spot arguments', () => {
  it('defaults to 10k GPUs, 4 runs, 20 s of load per endpoint', () => {
    expect(parseSpotArgs([])).toEqual({ gpus: 10_000, runs: 4, markdown: false, loadSeconds: 20, oldClient: true });
  });

  it('takes the largest subnet and the other options', () => {
    expect(parseSpotArgs(['--gpus', '45000', '--runs', '2', '--load-seconds', '30', '--markdown'])).toEqual({
      gpus: 45_000,
      runs: 2,
      markdown: true,
      loadSeconds: 30,
      oldClient: true,
    });
  });

  it('loads the API with the socket clients alone on --client socket, and refuses other clients', () => {
    expect(parseSpotArgs(['--client', 'socket']).oldClient).toBe(false);
    expect(parseSpotArgs(['--client', 'both']).oldClient).toBe(true);
    expect(() => parseSpotArgs(['--client', 'curl'])).toThrow(/--client "curl"/);
  });

  it('refuses a run count that is not a positive integer', () => {
    expect(() => parseSpotArgs(['--runs', '0'])).toThrow(/--runs "0"/);
    expect(() => parseSpotArgs(['--runs', '1.5'])).toThrow(/positive integer/);
  });
});
