import { describe, expect, it } from 'vitest';
import { Exposition, formatLabels } from './exposition.ts';

/** An exposition of `n` samples whose node names are `name(i)`. */
function build(n: number, name: (i: number) => string): Exposition {
  const e = new Exposition();
  e.header('infiniband_hca_port_transmit_data_bytes_total', 'counter', 'Data octets transmitted.');
  for (let i = 0; i < n; i++)
    e.sample('infiniband_hca_port_transmit_data_bytes_total', formatLabels({ name: name(i), port: i % 64 }), i * 4);
  return e;
}

describe('Exposition.bytes', () => {
  it('is the text encoded as UTF-8: nothing, ASCII, and names far from ASCII that outgrow its first guess', () => {
    const cases = [
      new Exposition(),
      build(1000, (i) => `gpu-node-${i} HCA-1`),
      build(10, (i) => `nœud-${i} "quoted" \\ back\nline`),
      // Three bytes a character for most of it: more than the one byte a character it starts with.
      build(20_000, (i) => `計算ノード-${i}-${'日本'.repeat(8)}-🚀`),
    ];
    for (const e of cases) {
      const bytes = e.bytes();
      expect(bytes.equals(Buffer.from(e.text()))).toBe(true);
      expect(bytes.toString('utf8')).toBe(e.text());
    }
    expect(cases[0]!.bytes().length).toBe(0);
    expect(cases[3]!.bytes().length).toBeGreaterThan(cases[3]!.text().length + 65_536);
  });
});
