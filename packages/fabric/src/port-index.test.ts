import { describe, expect, it } from 'vitest';
import { PortIndex } from './port-index.ts';

describe('PortIndex', () => {
  it('keeps one value per node GUID and port number', () => {
    const ix = new PortIndex<string>();
    ix.set('0xa', 1, 'a1');
    ix.set('0xa', 64, 'a64');
    ix.set('0xb', 1, 'b1');
    ix.set('0xa', 1, 'a1 again');
    expect([ix.get('0xa', 1), ix.get('0xa', 64), ix.get('0xb', 1)]).toEqual(['a1 again', 'a64', 'b1']);
    expect([ix.get('0xa', 2), ix.get('0xb', 64), ix.get('0xc', 1)]).toEqual([undefined, undefined, undefined]);
  });

  it("hands out a node's ports as one array, whichever node was looked up last", () => {
    const ix = new PortIndex<string>();
    expect(ix.portsOf('0xa')).toBeUndefined();
    ix.slotsOf('0xa')[3] = 'a3';
    ix.set('0xb', 1, 'b1');
    // The last node at hand must not answer for another one.
    expect(ix.portsOf('0xa')?.[3]).toBe('a3');
    expect(ix.get('0xb', 3)).toBeUndefined();
    expect(ix.get('0xa', 1)).toBeUndefined();
    expect(ix.slotsOf('0xb')).toBe(ix.portsOf('0xb'));
    expect(ix.portsOf('0xc')).toBeUndefined();
    expect(ix.get('0xb', 1)).toBe('b1');
  });
});
