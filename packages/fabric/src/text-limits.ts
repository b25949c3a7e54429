/**
 * Maximum lengths of the text fields a fabric scan brings in. What the fabric reports is stored
 * and shown everywhere (topology, ports search, findings, worklist, CSV): one 50 MB node
 * description made `/api/topology` fail with `RangeError: Invalid string length` and a ports
 * search answer 262 MB (issue 14). The limits sit well above anything real and far below what
 * hurts.
 *
 * Over-long text is CUT, with a warning, not refused: the node, port, cable or SM it belongs to
 * is real (its GUID and port numbers are fine), and refusing the row would drop it and every
 * link through it. The warning says how many were cut and names the first, so the import is
 * partial and the operator can find the node. Pure: no I/O.
 */
import type { CableInfo, FabricNode, FabricPort, FabricSnapshot, SmObservation } from './types.ts';

export const TEXT_LIMITS = {
  /** IB NodeDescription is 64 bytes on the wire; twice that leaves room for escaped bytes. */
  nodeDescription: 128,
  /** Front-panel labels are like `1/17/2`. */
  portLabel: 32,
  /** SFF-8636/CMIS vendor name (16), part number (16), serial (16), identifier type. */
  cableText: 64,
  /** A tool's own warning text (ibdiagnet -W- lines, WARNINGS_* Summary cells). */
  toolText: 1024,
  /** An nccl-tests host name (DNS allows 253). */
  hostName: 255,
  /** One line of NCCL_DEBUG evidence. */
  evidenceLine: 512,
} as const;

/**
 * `text` cut to `max` UTF-16 units (a surrogate pair is never split), or `text` itself when it
 * fits.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const c = text.charCodeAt(max - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? max - 1 : max);
}

/** Counts the fields cut of one kind, for one warning. */
class CutTally {
  count = 0;
  private first = '';
  constructor(
    private readonly what: string,
    private readonly max: number,
  ) {}

  cut(text: string, owner: string): string {
    if (text.length <= this.max) return text;
    if (this.count++ === 0) this.first = `${owner}, ${text.length} characters`;
    return cutText(text, this.max);
  }

  warning(): string[] {
    if (this.count === 0) return [];
    return [`${this.count} ${this.what} longer than ${this.max} characters cut to ${this.max} (first: ${this.first})`];
  }
}

/** What {@link limitText} works on: the parts of a scan a source has. */
export interface TextFields {
  nodes?: FabricNode[];
  ports?: FabricPort[];
  sms?: SmObservation[];
  cables?: CableInfo[];
  toolFindings?: FabricSnapshot['toolFindings'];
}

/**
 * Cuts every over-long text field of `t` in place; returns one warning per kind of field cut
 * (none when nothing was).
 */
export function limitText(t: TextFields): string[] {
  const desc = new CutTally('node descriptions', TEXT_LIMITS.nodeDescription);
  const label = new CutTally('port labels', TEXT_LIMITS.portLabel);
  const cable = new CutTally('cable fields', TEXT_LIMITS.cableText);
  const tool = new CutTally('tool messages', TEXT_LIMITS.toolText);
  for (const n of t.nodes ?? []) n.description = desc.cut(n.description, `node ${n.guid}`);
  for (const s of t.sms ?? []) {
    if (s.nodeDescription !== undefined) s.nodeDescription = desc.cut(s.nodeDescription, `SM ${s.guid}`);
  }
  for (const p of t.ports ?? []) {
    if (p.label !== undefined) p.label = label.cut(p.label, `port ${p.nodeGuid}/${p.portNum}`);
  }
  for (const c of t.cables ?? []) {
    const at = `cable at ${c.nodeGuid}/${c.portNum}`;
    for (const k of ['vendor', 'partNumber', 'serialNumber', 'type'] as const) {
      const v = c[k];
      if (v !== undefined) c[k] = cable.cut(v, at);
    }
  }
  for (const f of t.toolFindings ?? []) {
    f.text = tool.cut(f.text, f.code ?? f.check ?? 'tool finding');
    if (f.scope !== undefined) f.scope = tool.cut(f.scope, 'a finding scope');
    if (f.code !== undefined) f.code = tool.cut(f.code, 'a finding code');
    if (f.check !== undefined) f.check = tool.cut(f.check, 'a finding check');
  }
  return [...desc.warning(), ...label.warning(), ...cable.warning(), ...tool.warning()];
}
