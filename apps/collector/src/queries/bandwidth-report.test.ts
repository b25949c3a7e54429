import { afterAll, describe, expect, it } from 'vitest';
import type { Verdict } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { PM_KINDS, syncFindings } from '../scans/findings-sync.ts';
import { testContext } from '../test-support.ts';
import { bandwidthReporter } from './bandwidth-report.ts';

const ctx = testContext();
afterAll(() => ctx.cleanup());

describe('the period report', () => {
  it('names a fabric issue at its peak: critical at 00:45 and major later reads critical', () => {
    const T = Date.UTC(2026, 11, 6, 0, 45);
    const v = (severity: Verdict['severity']): Verdict => ({
      kind: 'symbol-errors',
      severity,
      subject: { kind: 'port', port: { nodeGuid: '0x0000000000000042', portNum: 3 } },
      title: 'Symbol errors on leaf-01 port 3',
      evidence: {},
    });
    const repo = createFindingsRepo(ctx.db);
    syncFindings(repo, [v('critical')], PM_KINDS, T, 3_600_000);
    syncFindings(repo, [v('major')], PM_KINDS, T + 3_600_000, 3_600_000);
    const report = bandwidthReporter(ctx.db)({ from: T - 60_000, to: T + 7_200_000 });
    expect(report.topFabricIssues).toEqual([
      { kind: 'symbol-errors', title: 'Symbol errors on leaf-01 port 3', count: 1, severity: 'critical' },
    ]);
  });
});
