import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ParseError } from '../common/parse-error.ts';
import { ibqueryerrorsTable } from './ibqueryerrors-table.ts';
import { IbqueryerrorsTableStream } from './ibqueryerrors-table-stream.ts';
import { VARIANTS } from './ibqueryerrors-variants.test-helper.ts';

/** Every ibqueryerrors capture, and every bad input the diags parsers are tested with. */
const FILES = readdirSync(new URL('../../fixtures/diags/', import.meta.url))
  .filter((f) => /ibqueryerrors/.test(f) || f.endsWith('.bad.txt'))
  .sort();

const PORT_TO_NODE = new Map([['0xb83fd20300002091', '0xb83fd20300002090']]);

/** The result, or the ParseError's line, text and message. */
function outcome(f: () => unknown) {
  try {
    return { value: f() };
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    return { error: { line: e.line, text: e.text, message: e.message } };
  }
}

/** `bytes` pushed in chunks whose sizes cycle through `sizes`. */
function streamed(bytes: Uint8Array, sizes: number[], file: string) {
  const s = new IbqueryerrorsTableStream({ file, portToNode: PORT_TO_NODE }, bytes.length);
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    s.push(bytes.subarray(at, at + n));
    at += n;
  }
  expect(s.bytes).toBe(bytes.length);
  return outcome(() => s.end());
}

describe('IbqueryerrorsTableStream gives what ibqueryerrorsTable gives over the whole output', () => {
  // 1 byte: every line crosses chunks; 3: a BOM or a CRLF split; 4096/65536: pipe-sized chunks.
  const SPLITS = [[1], [3], [2, 7, 1, 13], [4096], [65536], [1 << 30]];
  for (const file of FILES) {
    it(`on ${file}: same table, summary, warnings or ParseError, in every variant and chunking`, () => {
      for (const [name, variant] of VARIANTS) {
        const bytes = variant(readFileSync(new URL(`../../fixtures/diags/${file}`, import.meta.url)));
        const want = outcome(() => ibqueryerrorsTable(bytes, { file, portToNode: PORT_TO_NODE }));
        for (const sizes of SPLITS) expect(streamed(bytes, sizes, file), `${name}, chunks ${sizes}`).toEqual(want);
      }
    });
  }

  it('fails on empty output as the whole parse does, and keeps a mid-stream ParseError for end()', () => {
    const empty = new IbqueryerrorsTableStream();
    expect(() => empty.end()).toThrowError(/empty output/);
    const s = new IbqueryerrorsTableStream();
    const bad = Buffer.from('Errors for "x"\n   GUID 0xZZ12 port 1: [PortRcvErrors == 7]\n');
    s.push(bad);
    expect(s.ok).toBe(false);
    s.push(Buffer.from('more\n'));
    expect(s.bytes).toBe(bad.length + 5);
    expect(() => s.end()).toThrowError(/ibqueryerrors:2: invalid GUID "0xZZ12"/);
  });

  it('gives up on a flood of lines it does not understand (the caller parses the whole output)', () => {
    const s = new IbqueryerrorsTableStream();
    // (Port lines without a header are no longer junk: a pasted excerpt is read.)
    const junk = Buffer.from('   not a line of ibqueryerrors: [PortXmitDiscards == 55]\n'.repeat(2000));
    s.push(junk);
    expect(s.ok).toBe(true); // the warnings of one chunk are counted before the next
    s.push(junk);
    expect(s.ok).toBe(false);
    expect(s.bytes).toBe(2 * junk.length);
    expect(() => s.end()).toThrowError(/more than 1000 warnings/);
    // The whole parse of the same bytes reads every line, and fails as it always did.
    expect(() => ibqueryerrorsTable(Buffer.concat([junk, junk]))).toThrowError(/neither port lines nor/);
  });

  it("sized from the last sweep's rows: a table of exactly that many rows, whatever the next one has", () => {
    const bytes = readFileSync(new URL('../../fixtures/diags/lab-ibqueryerrors-counters.txt', import.meta.url));
    const want = ibqueryerrorsTable(bytes, { file: 'c', portToNode: PORT_TO_NODE });
    const rows = want.value.table.rows;
    expect(rows).toBeGreaterThan(1);
    // As many rows as the last sweep (the columns are not cut to size), fewer, and more.
    const slice = vi.spyOn(Uint32Array.prototype, 'slice');
    try {
      for (const hint of [rows, rows + 5, 1]) {
        const s = new IbqueryerrorsTableStream({ file: 'c', portToNode: PORT_TO_NODE }, bytes.length, hint);
        s.push(bytes);
        slice.mockClear();
        const got = s.end();
        expect(got, `rows hint ${hint}`).toEqual(want);
        for (const c of got.value.table.columns) expect(c.hi.length).toBe(rows);
        // Exactly sized: the columns are the ones filled, not copies cut to size.
        if (hint === rows) expect(slice).not.toHaveBeenCalled();
        else expect(slice).toHaveBeenCalled();
      }
    } finally {
      slice.mockRestore();
    }
  });

  it('does not depend on the caller keeping its chunks intact', () => {
    const text = 'Data Counters for 0x1 "n"\n   GUID 0x1 port 1: [PortXmitData == 46728]\n## Summary: 1 nodes\n';
    const bytes = Buffer.from(text);
    const s = new IbqueryerrorsTableStream();
    for (let at = 0; at < bytes.length; at += 10) {
      const chunk = Buffer.from(bytes.subarray(at, at + 10));
      s.push(chunk);
      chunk.fill(0x41); // a reused buffer
    }
    expect(s.end()).toEqual(ibqueryerrorsTable(text));
  });
});
