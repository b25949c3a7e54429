import { describe, expect, it } from 'vitest';
import { buildNcclLabels, summaryText } from './scans.ts';

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
