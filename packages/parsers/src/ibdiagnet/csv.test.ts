import { describe, expect, it } from 'vitest';
import { splitCsvRow } from './csv.ts';

describe('splitCsvRow()', () => {
  it('keeps commas and semicolons inside quoted NodeDesc', () => {
    expect(splitCsvRow('"MF0;ib-switch-sequoia:MQM9700/U1",65,2')).toEqual([
      'MF0;ib-switch-sequoia:MQM9700/U1',
      '65',
      '2',
    ]);
    expect(splitCsvRow('a,"b, c",d')).toEqual(['a', 'b, c', 'd']);
  });
  it('unescapes doubled quotes and keeps empty fields', () => {
    expect(splitCsvRow('"say ""hi""",,x,')).toEqual(['say "hi"', '', 'x', '']);
    expect(splitCsvRow('"",""')).toEqual(['', '']);
  });
  it('returns undefined for a quoted field that never closes (line cut short)', () => {
    expect(splitCsvRow('"is-north-7-compu')).toBeUndefined();
  });
});
