import { describe, expect, it } from 'vitest';
import { parseSelection, serializeSelection } from './model.ts';

describe('selection in the URL', () => {
  it.each([
    ['n:0x0002c90300a1b2c3', { type: 'node', guid: '0x0002c90300a1b2c3' }],
    ['g:0x0002c90300a1b2c3', { type: 'group', leaf: '0x0002c90300a1b2c3' }],
    ['l:42', { type: 'link', id: 42 }],
  ] as const)('round-trips %s', (s, sel) => {
    expect(parseSelection(s)).toEqual(sel);
    expect(serializeSelection(parseSelection(s))).toBe(s);
  });
  it('ignores garbage', () => {
    expect(parseSelection('l:abc')).toBeNull();
    expect(parseSelection('x:1')).toBeNull();
    expect(parseSelection(undefined)).toBeNull();
    expect(serializeSelection(null)).toBeNull();
  });
});
