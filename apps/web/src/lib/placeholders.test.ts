import { describe, expect, it } from 'vitest';
import { examplesOf, searchPlaceholders } from './placeholders.ts';

describe('searchPlaceholders()', () => {
  it('names a real switch, host and rack of the fabric shown', () => {
    expect(searchPlaceholders({ switch: 'lab-leaf-01', host: 'node-03', rack: 'R02' })).toEqual({
      node: 'e.g. node-03 or lab-leaf-01',
      find: 'e.g. node-03, lab-leaf-01 or a GUID',
      switch: 'e.g. lab-leaf-01',
      rack: 'e.g. R02',
    });
  });
  it('falls back to neutral words on an empty fabric or before the summary loaded', () => {
    const neutral = {
      node: 'host, switch, GUID or LID',
      find: 'host, switch or GUID',
      switch: 'switch name',
      rack: 'rack name',
    };
    expect(searchPlaceholders({ switch: null, host: null, rack: null })).toEqual(neutral);
    expect(searchPlaceholders(undefined)).toEqual(neutral);
  });
});

describe('examplesOf()', () => {
  it('takes the first leaf switch (not a spine) and the first host of a loaded topology', () => {
    const t = {
      vocab: { nodeType: ['switch', 'ca'], tier: ['spine', 'leaf', 'hca'] },
      nodes: {
        name: ['lab-spine-01', 'lab-leaf-02', 'node-07 mlx5_0'],
        type: [0, 0, 1],
        tier: [0, 1, 2],
        host: [null, null, 'node-07'],
      },
    };
    expect(examplesOf(t)).toEqual({ switch: 'lab-leaf-02', host: 'node-07', rack: null });
    expect(examplesOf({ ...t, nodes: { name: [], type: [], tier: [], host: [] } })).toEqual({
      switch: null,
      host: null,
      rack: null,
    });
  });
});
