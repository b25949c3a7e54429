import { describe, expect, it } from 'vitest';
import { buildNcclLabels, buildRunStart, replyWarnings, summaryText } from './scans.ts';

describe('buildNcclLabels()', () => {
  it('drops blanks and parses numbers', () => {
    expect(buildNcclLabels({ cluster: ' c1 ', nodes: '16', gpuModel: '', hcaCount: '', runBy: 'ana' })).toEqual({
      labels: { cluster: 'c1', nodes: 16, runBy: 'ana' },
      errors: [],
    });
  });
  it('reports bad numbers instead of guessing', () => {
    const r = buildNcclLabels({ cluster: '', nodes: '1.5', gpuModel: '', hcaCount: '-8', runBy: '' });
    expect(r.errors).toHaveLength(2);
    expect(r.labels).toEqual({});
  });
});

describe('summaryText()', () => {
  it('joins summary entries', () => {
    expect(summaryText({ ports: 40960, file: 'x.db' })).toBe('ports=40,960 · file=x.db');
  });
});

describe('buildRunStart()', () => {
  const now = new Date('2026-11-29T18:00').getTime();
  it('reads the datetime-local value in the browser zone; blank means now', () => {
    expect(buildRunStart('', now)).toEqual({});
    expect(buildRunStart('2026-11-01T10:30', now)).toEqual({ startedAt: new Date(2026, 10, 1, 10, 30).getTime() });
  });
  it('refuses a time in the future or text that is no time', () => {
    expect(buildRunStart('2026-12-01T10:30', now).error).toBe('run start 2026-12-01T10:30 is in the future');
    expect(buildRunStart('yesterday', now).error).toBe('run start "yesterday" is not a date and time');
  });
});

describe('replyWarnings()', () => {
  it('takes the scan warnings of an import reply', () => {
    expect(replyWarnings({ id: 1, scan: { warnings: ['a', 2, 'b'] } })).toEqual(['a', 'b']);
    expect(replyWarnings(null)).toEqual([]);
    expect(replyWarnings({ id: 1 })).toEqual([]);
  });
});
