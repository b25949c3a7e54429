/**
 * `ibstat` and `ibstatus` (what a technician pastes from a node) -> one record per HCA port:
 * state, physical state, rate, link layer, LIDs, GUIDs, firmware. Both print the kernel's view
 * of the local ports (sysfs), so they work on RoCE NICs too: `Link layer: Ethernet` ports are
 * kept and marked, since an Ethernet port has no LID, no SM and no IB rate to judge.
 *
 * ```
 * CA 'mlx5_5'                                   (ibstat)
 *         Firmware version: 20.30.1004
 *         Node GUID: 0x08c0eb0300ea50e6
 *         Port 1:
 *                 State: Active
 *                 Physical state: LinkUp
 *                 Rate: 200
 *                 Base lid: 18
 *                 SM lid: 4
 *                 Port GUID: 0x08c0eb0300ea50e6
 *                 Link layer: InfiniBand
 *
 * Infiniband device 'mlx5_2' port 1 status:     (ibstatus)
 *         base lid:        0x0
 *         sm lid:          0x0
 *         state:           1: DOWN
 *         phys state:      3: Disabled
 *         rate:            100 Gb/sec (4X EDR)
 *         link_layer:      Ethernet
 * ```
 * Unusable: empty, binary, or neither header anywhere. A port block cut before its `State` is
 * an error naming its line (a paste cut short); other unknown lines are warnings.
 */
import type { Guid } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';

export interface HcaPortStatus {
  /** The CA name (`mlx5_0`). */
  ca: string;
  portNum: number;
  /** `Active`, `Down`, `Initializing`, `Armed` (ibstatus's `4: ACTIVE` is read as `Active`). */
  state: string;
  /** `LinkUp`, `Polling`, `Disabled`, ... */
  physState?: string;
  /** Gb/s as printed (`Rate: 200`, `rate: 100 Gb/sec (4X EDR)`). */
  rateGbps?: number;
  /** ibstatus's `4X EDR` in the rate line. */
  rateText?: string;
  /** `InfiniBand` or `Ethernet` (RoCE); absent on old tools that do not print it. */
  linkLayer?: string;
  ethernet: boolean;
  baseLid?: number;
  smLid?: number;
  /** ibstat's `Port GUID`; for ibstatus, from the default GID of an InfiniBand port. */
  portGuid?: Guid;
  /** ibstat only: the CA's. */
  nodeGuid?: Guid;
  firmware?: string;
  caType?: string;
  /** 1-based line of the port's header. */
  line: number;
}

export interface IbstatResult {
  format: 'ibstat' | 'ibstatus';
  ports: HcaPortStatus[];
}

const CA_RE = /^CA '([^']+)'\s*$/;
const IBSTAT_PORT_RE = /^\s+Port (\d+):\s*$/;
const IBSTATUS_RE = /^Infiniband device '([^']+)' port (\d+) status:\s*$/;
const FIELD_RE = /^\s+([A-Za-z][A-Za-z _]*?):\s*(.*?)\s*$/;
const STATES: Record<string, string> = { ACTIVE: 'Active', DOWN: 'Down', INIT: 'Initializing', ARMED: 'Armed' };

/** `4: ACTIVE` -> `Active`; `Active` stays. */
function stateOf(v: string): string {
  const word = v.replace(/^\d+:\s*/, '');
  return STATES[word.toUpperCase()] ?? word;
}

function lidOf(v: string): number | undefined {
  const n = /^0x[0-9a-f]+$/i.test(v) ? parseInt(v, 16) : /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isNaN(n) ? undefined : n;
}

/** Line-at-a-time ibstat / ibstatus parser (the format is told by the first header). */
export function createIbstatParser(opts: ParseOptions = {}): LineParser<IbstatResult> {
  const ctx = new LineContext('ibstat', opts.file);
  const ports: HcaPortStatus[] = [];
  let format: IbstatResult['format'] | undefined;
  let ca: { name: string; firmware?: string; nodeGuid?: Guid; caType?: string } | undefined;
  let port: HcaPortStatus | undefined;
  let stateSeen = false;

  let gid: string | undefined;
  const close = () => {
    if (port && !stateSeen) ctx.fail(`port ${port.ca} ${port.portNum} cut short: no State line`, undefined, port.line);
    // ibstatus prints no port GUID; on an IB port it is the low 64 bits of the default GID
    // (`fe80:0000:0000:0000:946d:ae03:00fc:e51c`). A RoCE GID is made from the MAC: no GUID.
    const m = gid && /^fe80(?::0000){3}((?::[0-9a-f]{4}){4})$/i.exec(gid);
    if (port && m && !port.ethernet && port.portGuid === undefined)
      port.portGuid = ctx.guid(`0x${m[1].replaceAll(':', '')}`);
    gid = undefined;
    if (port) ports.push(port);
    port = undefined;
  };
  const open = (name: string, num: number) => {
    close();
    port = { ca: name, portNum: num, state: '', ethernet: false, line: ctx.lineNo };
    if (ca?.firmware) port.firmware = ca.firmware;
    if (ca?.nodeGuid) port.nodeGuid = ca.nodeGuid;
    if (ca?.caType) port.caType = ca.caType;
    stateSeen = false;
  };

  const field = (key: string, v: string, line: string) => {
    if (!port) {
      if (!ca) return ctx.unknown(line);
      if (key === 'firmware version') ca.firmware = v;
      else if (key === 'node guid') ca.nodeGuid = ctx.guid(v, line);
      else if (key === 'ca type') ca.caType = v;
      return;
    }
    switch (key) {
      case 'state':
        port.state = stateOf(v);
        stateSeen = true;
        return;
      case 'physical state':
      case 'phys state':
        port.physState = v.replace(/^\d+:\s*/, '');
        return;
      case 'rate': {
        const m = /^(\d+(?:\.\d+)?)(?:\s*Gb\/sec)?(?:\s*\(([^)]*)\))?$/.exec(v);
        if (!m) return ctx.unknown(line, 'rate not understood');
        port.rateGbps = Number(m[1]);
        if (m[2]) port.rateText = m[2];
        return;
      }
      case 'link layer':
      case 'link_layer':
        port.linkLayer = v;
        port.ethernet = /^ethernet$/i.test(v);
        return;
      case 'base lid':
        port.baseLid = lidOf(v);
        return;
      case 'sm lid':
        port.smLid = lidOf(v);
        return;
      case 'port guid':
        port.portGuid = ctx.guid(v, line);
        return;
      case 'default gid':
        gid = v;
        return;
      default:
        return; // LMC, capability mask: not judged
    }
  };

  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (line.trim() === '') return;
      let m: RegExpExecArray | null;
      if ((m = CA_RE.exec(line))) {
        close();
        format ??= 'ibstat';
        ca = { name: m[1] };
      } else if ((m = IBSTAT_PORT_RE.exec(line)) && ca) {
        open(ca.name, Number(m[1]));
      } else if ((m = IBSTATUS_RE.exec(line))) {
        format ??= 'ibstatus';
        ca = undefined;
        open(m[1], Number(m[2]));
      } else if ((m = FIELD_RE.exec(line))) {
        field(m[1].toLowerCase(), m[2], line);
      } else ctx.unknown(line);
    },
    finish() {
      close();
      ctx.requireContent();
      if (!format)
        return ctx.fail("neither ibstat (CA '...') nor ibstatus (Infiniband device '...') output", undefined, null);
      if (ports.length === 0) ctx.warn('no port listed', null);
      return ctx.result<IbstatResult>({ format, ports });
    },
  };
}

/** Parse ibstat or ibstatus output. */
export function parseIbstat(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createIbstatParser(opts), input);
}
