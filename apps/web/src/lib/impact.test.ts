import { describe, expect, it } from 'vitest';
import { impactBrief } from './impact.ts';

describe('impactBrief()', () => {
  it('counts hosts and GPUs, and names jobs and the hosts to drain when there are any', () => {
    expect(impactBrief({ kind: 'hca-link', hosts: 1, gpus: 1, jobs: 0, drain: [] })).toBe('1 host · 1 GPU');
    expect(impactBrief({ kind: 'leaf-uplink', hosts: 32, gpus: 32, jobs: 2, drain: ['dgx-0002', 'dgx-0003'] })).toBe(
      '32 hosts · 32 GPUs · 2 jobs · drain dgx-0002 dgx-0003',
    );
    expect(impactBrief({ kind: 'leaf-uplink', hosts: 8, gpus: 8, jobs: 1, drain: ['a', 'b', 'c', 'd', 'e'] })).toBe(
      '8 hosts · 8 GPUs · 1 job · drain a b c d …',
    );
  });
});
