/**
 * HCA ports as a node reports them itself (`ibstat`, `ibstatus` pasted by a technician), judged
 * for readiness: an InfiniBand port that is not Active/LinkUp, or that trained below the
 * expected rate. Ethernet (RoCE) ports are listed but not judged: no SM, no LID, no IB rate.
 */
import type { ExpectedRate } from './api.ts';
import type { Verdict } from './findings.ts';
import { nominalGbps } from './rates.ts';
import type { Guid } from './types.ts';

/** What a port's own status says (the parsers' HcaPortStatus has these fields). */
export interface HcaPortReport {
  ca: string;
  portNum: number;
  state: string;
  physState?: string;
  rateGbps?: number;
  ethernet: boolean;
  portGuid?: Guid;
  nodeGuid?: Guid;
  firmware?: string;
}

export const HCA_PORT_KINDS = ['hca-port-not-active', 'hca-port-slow'] as const;

/**
 * The port a report names: the node GUID (ibstat's, or the topology's for the port GUID) and the
 * port number; without a node GUID the port GUID stands for the node (the paste says no more).
 */
export function hcaPortRef(p: HcaPortReport, nodeOf: (portGuid: Guid) => Guid | undefined) {
  const nodeGuid = p.nodeGuid ?? (p.portGuid ? (nodeOf(p.portGuid) ?? p.portGuid) : undefined);
  return nodeGuid === undefined ? undefined : { nodeGuid, portNum: p.portNum };
}

/** Verdicts for the InfiniBand ports of one paste; `file` is named in each title. */
export function hcaPortVerdicts(
  ports: readonly HcaPortReport[],
  expected: ExpectedRate,
  nodeOf: (portGuid: Guid) => Guid | undefined,
  file: string,
): Verdict[] {
  const want = nominalGbps(expected.width, expected.speed);
  const out: Verdict[] = [];
  for (const p of ports) {
    if (p.ethernet) continue;
    const port = hcaPortRef(p, nodeOf);
    if (!port) continue;
    const name = `${p.ca} port ${p.portNum}`;
    const evidence = {
      ca: p.ca,
      portNum: p.portNum,
      state: p.state,
      physState: p.physState ?? null,
      rateGbps: p.rateGbps ?? null,
      portGuid: p.portGuid ?? null,
      firmware: p.firmware ?? null,
      file,
    };
    if (p.state !== 'Active' || (p.physState !== undefined && p.physState !== 'LinkUp')) {
      const what = `${p.state}${p.physState ? `/${p.physState}` : ''}`;
      out.push({
        kind: 'hca-port-not-active',
        severity: 'major',
        subject: { kind: 'port', port },
        title: `${name} is ${what}, not Active/LinkUp (from ${file})`,
        short: what,
        evidence,
      });
    } else if (p.rateGbps !== undefined && p.rateGbps < want) {
      out.push({
        kind: 'hca-port-slow',
        severity: 'major',
        subject: { kind: 'port', port },
        title:
          `${name} runs at ${p.rateGbps} Gb/s, below the expected ${want} Gb/s ` +
          `(${expected.width} ${expected.speed}; from ${file})`,
        short: `rate ${p.rateGbps}G<${want}G`,
        evidence: { ...evidence, expectedGbps: want },
      });
    }
  }
  return out;
}
