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
});
