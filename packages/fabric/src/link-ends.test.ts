import { describe, expect, it } from 'vitest';
import { compareLinkEnds, compareWalkOrder, orderLinkEnds, type EndFacts } from './link-ends.ts';

const hca: EndFacts = { guid: '0x0000000000000001', port: 1, type: 'ca', tier: 'hca' };
const leaf: EndFacts = { guid: '0x00000000000000f0', port: 7, type: 'switch', tier: 'leaf' };
const spine: EndFacts = { guid: '0x0000000000000002', port: 3, type: 'switch', tier: 'spine' };
const core: EndFacts = { guid: '0x0000000000000003', port: 1, type: 'switch', tier: 'core' };

describe('compareLinkEnds()', () => {
  it('puts the switch end first whichever end is given first', () => {
    expect(orderLinkEnds(hca, leaf, (e) => e)).toEqual([leaf, hca]);
    expect(orderLinkEnds(leaf, hca, (e) => e)).toEqual([leaf, hca]);
  });
  it('puts the lower switch of the tree first, then the lower GUID and port', () => {
    expect(orderLinkEnds(spine, leaf, (e) => e)).toEqual([leaf, spine]);
    expect(orderLinkEnds(core, spine, (e) => e)).toEqual([spine, core]);
    const a = { guid: '0x01', port: 2, type: 'switch' as const };
    const b = { guid: '0x01', port: 1, type: 'switch' as const };
    expect(orderLinkEnds(a, b, (e) => e)).toEqual([b, a]);
    expect(compareLinkEnds(a, a)).toBe(0);
  });
  it('ranks a node of unknown type after switches', () => {
    expect(orderLinkEnds({ guid: '0x00', port: 1 }, leaf, (e) => e)[0]).toBe(leaf);
  });
});

describe('compareWalkOrder()', () => {
  it('walks racks in natural order, then up the rack units, then ports; unplaced ends last', () => {
    const stops = [
      { rack: 'R10', u: 1, name: 'leaf-c', port: 1 },
      { rack: null, u: null, name: 'leaf-x', port: 1 },
      { rack: 'R2', u: 12, name: 'leaf-b', port: 9 },
      { rack: 'R2', u: 12, name: 'leaf-b', port: 3 },
      { rack: 'R2', u: null, name: 'leaf-a', port: 1 },
      { rack: 'R2', u: 4, name: 'leaf-z', port: 40 },
    ];
    expect([...stops].sort(compareWalkOrder).map((s) => `${s.rack}/${s.u}/${s.port}`)).toEqual([
      'R2/4/40',
      'R2/12/3',
      'R2/12/9',
      'R2/null/1',
      'R10/1/1',
      'null/null/1',
    ]);
  });
});
