import { describe, expect, it } from 'vitest';
import { decimalHalves, decodeUtf8, halves } from './bytes.ts';
import { splitLines } from './lines.ts';
import { ByteLineSplitter, ChunkLineSplitter } from './line-runner.ts';

const TEXTS = [
  'a\nb\n',
  'a\r\nb\r\n',
  'a\nb',
  'a\rb\r\nc\r',
  'x\r\r\n\ny',
  '\uFEFFSTART_NODES\nrow\n',
  '\n',
  '',
  '\uFEFF',
  '"ärger ☃ mlx5_0",1\n"日本",2',
  'tail\r',
  'a\n\n\n',
];

/** Lines of `bytes` pushed in `size`-byte pieces through one re-used buffer, as the file reader does. */
function splitBytes(bytes: Uint8Array, size: number, splitLoneCr: boolean): string[] {
  const lines: string[] = [];
  const s = new ByteLineSplitter(
    {
      feed: (l) => {
        lines.push(l);
      },
    },
    splitLoneCr,
  );
  const buf = new Uint8Array(size);
  for (let i = 0; i < bytes.length; i += size) {
    const n = Math.min(size, bytes.length - i);
    buf.set(bytes.subarray(i, i + n));
    s.push(buf.subarray(0, n));
    buf.fill(0x41);
  }
  s.end();
  return lines;
}

function chunkLines(text: string): string[] {
  const lines: string[] = [];
  const s = new ChunkLineSplitter((l) => {
    lines.push(l);
  });
  s.push(text);
  s.end();
  return lines;
}

describe('decodeUtf8()', () => {
  it('decodes as Buffer#toString does: ASCII, multi-byte, cut and invalid sequences, a BOM inside', () => {
    const samples = [
      Buffer.from('N/A'),
      Buffer.from('gpu-node-0001 mlx5_0'),
      Buffer.from('é☃ 日本 😀'),
      Buffer.from([0x61, 0xe2, 0x98]),
      Buffer.from([0xff, 0xfe, 0x41, 0xc3]),
      Buffer.from([0xef, 0xbb, 0xbf, 0x41]),
      Buffer.from([0xed, 0xa0, 0x80, 0x41]),
    ];
    for (const b of samples) expect(decodeUtf8(b, 0, b.length)).toBe(b.toString('utf8'));
  });
});

describe('decimalHalves()', () => {
  it('reads 1 to 20 digits exactly and refuses values beyond 2^64 - 1', () => {
    for (const d of [
      '0',
      '7',
      '9007199254740993',
      '1234567890123456789',
      '18446744073709551615',
      '00000000000000000012',
    ]) {
      expect(decimalHalves(Buffer.from(d), 0, d.length)).toBe(true);
      expect((BigInt(halves.hi) << 32n) | BigInt(halves.lo)).toBe(BigInt(d));
    }
    expect(decimalHalves(Buffer.from('18446744073709551616'), 0, 20)).toBe(false);
    expect(decimalHalves(Buffer.from('12a4'), 0, 4)).toBe(false);
  });
});

describe('ByteLineSplitter', () => {
  it('cuts bytes into the lines splitLines cuts the decoded text, whatever the chunk size', () => {
    for (const text of TEXTS) {
      const bytes = Buffer.from(text);
      for (const size of [1, 2, 3, 5, 64])
        expect(splitBytes(bytes, size, true), JSON.stringify(text)).toEqual(splitLines(text));
    }
  });

  it('as the file reader, cuts lines as ChunkLineSplitter cuts the text (a lone \\r stays in its line)', () => {
    for (const text of TEXTS) {
      for (const size of [1, 3, 64])
        expect(splitBytes(Buffer.from(text), size, false), JSON.stringify(text)).toEqual(chunkLines(text));
    }
  });

  it('decodes a multi-byte character cut by a chunk boundary as one character', () => {
    expect(splitBytes(Buffer.from('ab☃cd\n☃\n'), 3, false)).toEqual(['ab☃cd', '☃']);
  });
});
