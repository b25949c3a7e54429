import { describe, expect, it } from 'vitest';
import { KIND_LABEL, linkText } from './validation.ts';

describe('validation view helpers', () => {
  it('names a link with both ends and its rate', () => {
    const end = (name: string, port: number) => ({ guid: '0x1', name, port });
    expect(linkText({ a: end('leaf-01', 3), b: end('dgx-0001 mlx5_0', 1), width: '4X', speed: 'NDR' })).toBe(
      'leaf-01 port 3 <-> dgx-0001 mlx5_0 port 1 (4X NDR)',
    );
    expect(linkText({ a: end('a', 1), b: end('b', 2), width: null, speed: null })).toBe('a port 1 <-> b port 2');
    expect(linkText(null)).toBe('—');
  });

  it('labels every kind', () => {
    expect(Object.keys(KIND_LABEL).sort()).toEqual(
      ['degraded', 'extra-link', 'missing-link', 'moved-cable', 'wrong-rail'].sort(),
    );
  });
});
