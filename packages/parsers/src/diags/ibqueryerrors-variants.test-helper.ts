/** Test helper: byte-level variants of an ibqueryerrors capture that every reader must handle alike. */
/** The same output with CRLF, a BOM, a multi-byte node description, cut mid-line. */
export const VARIANTS: [string, (b: Buffer) => Buffer][] = [
  ['as is', (b) => b],
  ['CRLF', (b) => Buffer.from(b.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1')],
  ['BOM', (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])],
  ['multi-byte description', (b) => Buffer.from(b.toString('utf8').replace(/"([^"\n]*)"/g, '"$1 ärger ☃ 日本"'))],
  ['cut mid-line', (b) => b.subarray(0, Math.floor((b.length * 2) / 3))],
  [
    'cut inside a multi-byte character',
    (b) => {
      const m = Buffer.from(b.toString('utf8').replace('"', '"☃'));
      return m.subarray(0, m.indexOf('☃') + 2);
    },
  ],
  [
    'lone CR',
    (b) => {
      const i = b.indexOf(10, b.length >> 1);
      return i < 0 ? b : Buffer.concat([b.subarray(0, i), Buffer.from('\r'), b.subarray(i + 1)]);
    },
  ],
];
