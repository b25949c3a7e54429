import { describe, expect, it } from 'vitest';
import { asBuiltVerdicts, validateAsBuilt, type AsBuiltLink } from './as-built.ts';
import type { NodeType } from './types.ts';

// Two rail leaves (rail 0, rail 1), a spine, two hosts' HCAs (mlx5_0 of each, rail 0).
const TYPES: Record<string, NodeType> = { L0: 'switch', L1: 'switch', S: 'switch', H1: 'ca', H2: 'ca' };
const RAILS: Record<string, number> = { L0: 0, L1: 1 };
const opts = {
  name: (g: string) => g,
  type: (g: string) => TYPES[g],
  leafRail: (g: string) => RAILS[g],
};
const l = (ag: string, ap: number, bg: string, bp: number, width = '4X', speed = 'NDR'): AsBuiltLink =>
  ({ a: { nodeGuid: ag, portNum: ap }, b: { nodeGuid: bg, portNum: bp }, width, speed }) as AsBuiltLink;

const BUILT = [l('L0', 1, 'H1', 1), l('L0', 2, 'H2', 1), l('L0', 33, 'S', 1), l('L1', 33, 'S', 2)];

describe('validateAsBuilt', () => {
  it('finds nothing on a fabric cabled as built (ends in either order)', () => {
    const now = BUILT.map((x) => ({ ...x, a: x.b, b: x.a }));
    expect(validateAsBuilt(BUILT, now, opts)).toEqual([]);
  });

  it('calls a cable moved to another port of the same switch a moved cable, not missing + extra', () => {
    const now = [l('L0', 5, 'H1', 1), ...BUILT.slice(1)];
    const rows = validateAsBuilt(BUILT, now, opts);
    expect(rows.map((r) => [r.kind, r.detail])).toEqual([
      ['moved-cable', 'L0 port 5 <-> H1 port 1; built as L0 port 1 <-> H1 port 1'],
    ]);
  });

  it('calls a cable moved between the same two nodes on both ends a moved cable', () => {
    const now = [BUILT[0]!, BUILT[1]!, l('L0', 34, 'S', 7), BUILT[3]!];
    expect(validateAsBuilt(BUILT, now, opts).map((r) => r.kind)).toEqual(['moved-cable']);
  });

  it('calls an HCA moved to a leaf of another rail a wrong rail', () => {
    const now = [l('L1', 9, 'H1', 1), ...BUILT.slice(1)];
    const rows = validateAsBuilt(BUILT, now, opts);
    expect(rows.map((r) => r.kind)).toEqual(['wrong-rail']);
    expect(rows[0]!.detail).toBe('H1 port 1 is on L1 port 9 (rail 1); built on L0 port 1 (rail 0)');
  });

  it('finds missing, extra and slower or narrower links', () => {
    const now = [l('L0', 1, 'H1', 1, '2X'), l('L0', 33, 'S', 1, '4X', 'HDR'), BUILT[3]!, l('L1', 40, 'S', 9)];
    const rows = validateAsBuilt(BUILT, now, opts);
    expect(rows.map((r) => r.kind)).toEqual(['missing-link', 'degraded', 'degraded', 'extra-link']);
    expect(rows[0]!.asBuilt).toEqual(BUILT[1]);
    expect(rows.find((r) => r.kind === 'extra-link')!.now).toEqual(l('L1', 40, 'S', 9));
    // A link faster than built is not a finding.
    expect(validateAsBuilt([l('L0', 1, 'H1', 1, '2X', 'HDR')], [l('L0', 1, 'H1', 1)], opts)).toEqual([]);
  });

  it('makes one finding per row, on the link as it is now', () => {
    const now = [l('L0', 5, 'H1', 1), ...BUILT.slice(1)];
    const [v] = asBuiltVerdicts(validateAsBuilt(BUILT, now, opts));
    expect(v).toMatchObject({
      kind: 'baseline-moved-cable',
      severity: 'major',
      subject: { kind: 'link', a: { nodeGuid: 'L0', portNum: 5 }, b: { nodeGuid: 'H1', portNum: 1 } },
      evidence: { asBuilt: { a: 'L0/1', b: 'H1/1' }, now: { a: 'L0/5', b: 'H1/1' } },
    });
  });
});
