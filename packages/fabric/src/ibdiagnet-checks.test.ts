import { describe, expect, it } from 'vitest';
import { ibdiagnetEvaluated, ibdiagnetKind, ibdiagnetVerdicts, isIbdiagnetKind } from './ibdiagnet-checks.ts';
import type { FabricSnapshot } from './types.ts';

type ToolFinding = FabricSnapshot['toolFindings'][number];

// Rows of the real ndr-fat-tree-a db_csv (packages/parsers/fixtures/ibdiagnet2-runs), as the
// parser gives them.
const FW: ToolFinding = {
  severity: 'warning',
  check: 'FW_CHECK',
  scope: 'NODE',
  nodeGuid: '0xfc6a1c030091cf00',
  code: 'NODE_WRONG_FW_VERSION',
  text:
    'Node with Devid:54002(0xd2f2)-PSID:MT_0000000579 has FW version 31.2012.1024 while the latest ' +
    'FW version for the same Devid/PSID on this fabric is 31.2012.1068',
};
const dupDesc = (guid: string): ToolFinding => ({
  severity: 'warning',
  check: 'DUPLICATED_NODE_DESCRIPTION_DETECTION',
  scope: 'CLUSTER',
  nodeGuid: guid,
  code: 'NODE_DUPLICATED_NODE_DESC',
  text: `Node with GUID=${guid} is configured with duplicated node description - Quantum-2 Mellanox Technologies`,
});
const NO_RESPONSE: ToolFinding = {
  severity: 'warning',
  check: 'VS_CAPABILITY_GMP',
  scope: 'NODE',
  nodeGuid: '0xb0cf0e0300e5b948',
  code: 'NODE_NO_RESPONSE',
  text: 'No response for MAD VSGeneralInfo- status = 4',
};
const HIERARCHY: ToolFinding = {
  severity: 'warning',
  check: 'PORT_HIERARCHY_INFO',
  scope: 'PORT',
  nodeGuid: '0xb0cf0e0300d33fc0',
  port: { nodeGuid: '0xb0cf0e0300d33fc0', portNum: 65 },
  code: 'PORT_HIERARCHY_MISSING',
  text: 'In Node ib-switch-sequoia/U1 Port 65 hierarchy info is missing',
};
const names: Record<string, string> = {
  '0xfc6a1c030091cf00': 'Quantum-2 Mellanox Technologies',
  '0xb0cf0e0300e5b948': 'Mellanox Technologies Aggregation Node',
  '0xb0cf0e0300d33fc0': 'MF0;ib-switch-sequoia:MQM9700/U1',
};
const nodeName = (g: string) => names[g];

describe('ibdiagnetVerdicts()', () => {
  it('makes firmware drift a minor finding about the node, with version and latest in its evidence', () => {
    expect(ibdiagnetVerdicts({ toolFindings: [FW] }, { nodeName })).toEqual([
      {
        kind: 'ibdiagnet-firmware-drift',
        severity: 'minor',
        subject: { kind: 'node', guid: '0xfc6a1c030091cf00' },
        title:
          "Firmware 31.2012.1024 on Quantum-2 Mellanox Technologies (0xfc6a1c030091cf00); the fabric's " +
          'latest for MT_0000000579 is 31.2012.1068',
        short: 'firmware 31.2012.1024 -> 31.2012.1068',
        evidence: {
          psid: 'MT_0000000579',
          version: '31.2012.1024',
          latest: '31.2012.1068',
          check: 'FW_CHECK',
          event: 'NODE_WRONG_FW_VERSION',
          level: 'warning',
          messages: [FW.text],
        },
      },
    ]);
  });

  it('names each switch of a duplicated description and how many share it', () => {
    const guids = ['0xfc6a1c030091cf00', '0xb0cf0e0300e5b940', '0xfc6a1c03008a4dc0'];
    const v = ibdiagnetVerdicts({ toolFindings: guids.map(dupDesc) }, { nodeName });
    expect(v.map((x) => [x.kind, x.severity, x.subject])).toEqual(
      guids.map((guid) => ['ibdiagnet-duplicate-node-description', 'minor', { kind: 'node', guid }]),
    );
    expect(v[0]!.title).toBe(
      'Quantum-2 Mellanox Technologies (0xfc6a1c030091cf00) shares its node description "Quantum-2 ' +
        'Mellanox Technologies" with 2 other nodes',
    );
    // Without a name the GUID alone names the node.
    expect(v[1]!.title).toMatch(/^0xb0cf0e0300e5b940 shares/);
  });

  it('grades an unanswered vendor-specific MAD info and a missing port hierarchy info, on the port', () => {
    const v = ibdiagnetVerdicts({ toolFindings: [NO_RESPONSE, HIERARCHY] }, { nodeName });
    expect(v.map((x) => [x.kind, x.severity, x.title])).toEqual([
      [
        'ibdiagnet-vs-capability-gmp',
        'info',
        'Mellanox Technologies Aggregation Node (0xb0cf0e0300e5b948) did not answer MAD VSGeneralInfo',
      ],
      [
        'ibdiagnet-port-hierarchy',
        'info',
        'MF0;ib-switch-sequoia:MQM9700/U1 (0xb0cf0e0300d33fc0) port 65: no port hierarchy (front-panel label) reported',
      ],
    ]);
    expect(v[1]!.subject).toEqual({ kind: 'port', port: { nodeGuid: '0xb0cf0e0300d33fc0', portNum: 65 } });
  });

  it('keeps ibdiagnet level for events it does not know, quoting the text with its commas back', () => {
    const v = ibdiagnetVerdicts({
      toolFindings: [
        { severity: 'error', check: 'SOME_NEW_CHECK', nodeGuid: '0x0002c90300000001', text: 'Thing A- thing B' },
        { severity: 'warning', check: 'SOME_NEW_CHECK', text: 'cluster-wide remark' },
      ],
    });
    expect(v.map((x) => [x.kind, x.severity, x.title, x.subject.kind])).toEqual([
      ['ibdiagnet-some-new-check', 'major', '0x0002c90300000001: Thing A, thing B', 'node'],
      ['ibdiagnet-some-new-check', 'minor', 'fabric: cluster-wide remark', 'run'],
    ]);
  });

  it('grades link speed and width mismatches of the log major and counter increases minor', () => {
    const v = ibdiagnetVerdicts({
      toolFindings: [
        {
          severity: 'warning',
          scope: 'log',
          check: 'LINKS_SPEED_CHECK',
          code: 'LINK_SPEED_MISMATCH',
          nodeGuid: '0xfc6a1c030091cf00',
          text:
            'Link: ' +
            'Sfc6a1c030091cf00/Nfc6a1c030091cf00/P1/1/1<-->is-north-7-compute-3/mlx5_0/B184D0F0/0/0/1 - ' +
            'Unexpected actual link speed 50',
        },
        {
          severity: 'error',
          scope: 'log',
          check: 'PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)',
          code: 'COUNTER_INCREASED',
          text:
            'is-north-7-compute-3/mlx5_0/B184D0F0/0/0/1 - "symbol_error_counter" increased during ' +
            'the run (difference value=27,difference allowed threshold=1)',
        },
      ],
    });
    expect(v.map((x) => [x.kind, x.severity])).toEqual([
      ['ibdiagnet-link-speed', 'major'],
      ['ibdiagnet-counters-increased', 'minor'],
    ]);
  });

  it('merges two rows about one node in one check into one verdict at the worse severity', () => {
    const second: ToolFinding = { ...NO_RESPONSE, severity: 'error', code: 'NODE_CONFIG_WRONG', text: 'bad config' };
    const v = ibdiagnetVerdicts({ toolFindings: [NO_RESPONSE, second] });
    expect(v).toHaveLength(1);
    expect(v[0]!.severity).toBe('major');
    expect(v[0]!.evidence.messages).toEqual([NO_RESPONSE.text, 'bad config']);
  });
});

describe('ibdiagnetEvaluated()', () => {
  it('covers the checks that ran, clean or not, and not the skipped ones', () => {
    const evaluated = ibdiagnetEvaluated({
      toolFindings: [NO_RESPONSE],
      toolChecks: [
        { check: 'FW_CHECK', result: 'ok' },
        { check: 'DUPLICATED_NODE_DESCRIPTION_DETECTION', result: 'skipped' },
      ],
    });
    expect(evaluated('ibdiagnet-firmware-drift')).toBe(true);
    expect(evaluated('ibdiagnet-vs-capability-gmp')).toBe(true);
    expect(evaluated('ibdiagnet-duplicate-node-description')).toBe(false);
    expect(evaluated('ibdiagnet-port-hierarchy')).toBe(false);
  });

  it('spells kinds from check names, known or not', () => {
    expect(ibdiagnetKind('FW_CHECK')).toBe('ibdiagnet-firmware-drift');
    expect(ibdiagnetKind('PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)')).toBe('ibdiagnet-counters-increased');
    expect(ibdiagnetKind('PHY_DB16_RETRIEVING')).toBe('ibdiagnet-phy-db16-retrieving');
    expect(isIbdiagnetKind('ibdiagnet-phy-db16-retrieving')).toBe(true);
    expect(isIbdiagnetKind('link-down')).toBe(false);
  });
});
