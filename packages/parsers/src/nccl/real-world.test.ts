import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures.test-helper.ts';
import { parseNcclTestsText } from './index.ts';

const reference = parseNcclTestsText(fixture('all_reduce_perf.multinode.good.txt')).value;
const busbw = (rows: { outOfPlace: { busbwGBs: number } | null }[]) => rows.map((r) => r.outOfPlace?.busbwGBs);

describe('nccl-tests logs with launcher prefixes', () => {
  it.each([
    ['all_reduce_perf.srun-l.good.txt', 'srun -l'],
    ['all_reduce_perf.mpirun-tag-output.good.txt', 'mpirun --tag-output'],
  ])('%s reads like the unprefixed log', (name, prefix) => {
    const { value, warnings } = parseNcclTestsText(fixture(name), { file: name });
    expect(warnings).toEqual([]);
    expect(value.linePrefix).toBe(prefix);
    expect(value.collective).toBe('all_reduce');
    expect(value.nRanks).toBe(16);
    expect(value.hosts).toEqual(reference.hosts);
    expect(value.params).toEqual(reference.params);
    expect(busbw(value.rows)).toEqual(busbw(reference.rows));
    expect(value.avgBusBwGBs).toBe(70.742);
  });
  it('the OpenMPI warning block and the plugin lines inside the header change nothing', () => {
    const { value } = parseNcclTestsText(fixture('all_reduce_perf.mpirun-tag-output.good.txt'));
    expect(value.devices).toEqual(reference.devices);
    expect(value.ncclWarnings).toEqual([]);
  });
  it('a prefixed log that is not nccl-tests still fails with file and line', () => {
    expect(() =>
      parseNcclTestsText(fixture('srun-l-not-nccl.bad.txt'), { file: 'srun-l-not-nccl.bad.txt' }),
    ).toThrowError(/^nccl-tests:srun-l-not-nccl\.bad\.txt:1: no nccl-tests result table found: "slurmstepd: error/);
  });
});

describe('nccl-tests tables pasted without the header block', () => {
  it.each([
    ['all_reduce_perf.rows-only.good.txt', 'all_reduce', 1.8749, 16],
    ['reduce_scatter_perf.rows-only.good.txt', 'reduce_scatter', 0.9375, 16],
    ['broadcast_perf.rows-only.good.txt', 'broadcast', 1, undefined],
  ])('%s: %s inferred from busbw/algbw, and said so', (name, collective, ratio, ranks) => {
    const { value, warnings } = parseNcclTestsText(fixture(name));
    expect(value.collective).toBe(collective);
    expect(value.collectiveSource).toBe('ratio');
    expect(value.inferred).toEqual(ranks === undefined ? { ratio } : { ratio, ranks });
    expect(value.headerless).toBe(true);
    expect(value.nRanks).toBeUndefined();
    expect(warnings.map((w) => w.message)).toContain(
      `collective not named in the log: ${collective} inferred from busbw/algbw = ${ratio.toFixed(3)}` +
        (ranks === undefined ? '' : `, n = ${ranks} ranks`),
    );
    expect(warnings[0]).toEqual({
      message: "table without its column-name line: columns taken from the row's fields (modern layout)",
      line: 1,
    });
  });
  it('the rows match the ones read with the header', () => {
    expect(busbw(parseNcclTestsText(fixture('all_reduce_perf.rows-only.good.txt')).value.rows)).toEqual(
      busbw(reference.rows),
    );
  });
  it('a caller hint still wins over the ratio', () => {
    const { value } = parseNcclTestsText(fixture('all_reduce_perf.rows-only.good.txt'), { collective: 'sendrecv' });
    expect(value).toMatchObject({ collective: 'sendrecv', collectiveSource: 'hint' });
  });
  it('an ambiguous ratio names no collective (all_gather and alltoall share (n-1)/n)', () => {
    const rows = parseNcclTestsText(fixture('all_gather_perf.modern.good.txt'))
      .value.rows.map((r) => r.line)
      .filter((l) => l !== undefined);
    const text = fixture('all_gather_perf.modern.good.txt').split('\n');
    const { value, warnings } = parseNcclTestsText(rows.map((l) => text[l - 1]).join('\n'));
    expect(value.collective).toBeUndefined();
    expect(warnings.at(-1)?.message).toMatch(/\(candidates: all_gather, alltoall\); pass it as a hint$/);
  });
});

describe('nccl-tests pastes in other shapes', () => {
  it('a paste that starts at "# Using devices"', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.from-using-devices.good.txt'));
    expect(warnings).toEqual([]);
    expect(value.params).toEqual({});
    expect(value).toMatchObject({ collective: 'all_reduce', collectiveSource: 'layout', nRanks: 16 });
    expect(busbw(value.rows)).toEqual(busbw(reference.rows));
  });
  it('rccl-tests headers: version line without #, collective named by the header', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.rccl.good.txt'));
    expect(warnings).toEqual([]);
    expect(value).toMatchObject({ rcclTestsVersion: 'develop:7ec9c1c', collectiveSource: 'header', nRanks: 16 });
    expect(value.gpuModels).toEqual(['AMD Instinct MI300X']);
  });
  it('a --(snip)-- marker, N/A in #wrong and trailing spaces', () => {
    const { value, warnings } = parseNcclTestsText(fixture('all_reduce_perf.snip.good.txt'), { file: 'snip.txt' });
    expect(value.snipLines).toEqual([28]);
    expect(warnings).toEqual([
      { message: '1 "--(snip)--" marker(s): rows were left out of the saved log', line: 28, file: 'snip.txt' },
    ]);
    expect(value.rows).toHaveLength(15);
    expect(value.rows[0].inPlace?.wrong).toBeNull();
    expect(value.rows[0].outOfPlace?.wrong).toBe(0);
    expect(value.rows.at(-1)?.outOfPlace?.busbwGBs).toBe(338.82);
    expect(value.truncated).toBe(false);
  });
});
