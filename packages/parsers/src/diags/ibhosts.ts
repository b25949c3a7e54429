/**
 * `ibhosts`, `ibswitches`, `ibrouters` and `ibnodes` -> {@link FabricNode}s. These are shell
 * wrappers over ibnetdiscover; real lines have a TAB before the colon:
 *
 * ```
 * Switch	: 0xfc6a1c0300001020 ports 36 "spine-02" base port 0 lid 7 lmc 0
 * Ca	: 0xb83fd20300002110 ports 1 "dgx-0017 mlx5_0"
 * ```
 * The GUID is the **node** GUID. Quantum switches print `enhanced port 0` instead of `base`.
 * Empty output is valid (a fabric without routers) and gives an empty list with a warning;
 * binary data throws; other lines are warnings.
 */
import type { FabricNode, NodeType } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';

const NODE_RE = new RegExp(
  /^(Ca|Switch|Router)\s*:\s*(0x[0-9a-fA-F]+)\s+ports\s+(\d+)\s+"(.*)"/.source +
    /(?:\s+(base|enhanced)\s+port\s+0\s+lid\s+(\d+)\s+lmc\s+(\d+))?\s*$/.source,
);
const TYPES: Record<string, NodeType> = { Ca: 'ca', Switch: 'switch', Router: 'router' };

/** A node plus the switch port-0 flavour (`base`/`enhanced`) and LMC, when printed. */
export interface DiagsNode extends FabricNode {
  port0?: 'base' | 'enhanced';
  lmc?: number;
}

/** Line-at-a-time parser for ibhosts / ibswitches / ibrouters / ibnodes output. */
export function createIbnodesParser(opts: ParseOptions = {}): LineParser<DiagsNode[]> {
  const ctx = new LineContext('ibnodes', opts.file);
  const nodes: DiagsNode[] = [];
  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (line.trim() === '') return;
      const m = NODE_RE.exec(line);
      if (!m) {
        ctx.unknown(line);
        return;
      }
      const n: DiagsNode = {
        guid: ctx.guid(m[2], line),
        type: TYPES[m[1]],
        description: m[4],
        numPorts: Number(m[3]),
      };
      if (m[5]) {
        n.port0 = m[5] as 'base' | 'enhanced';
        n.lid = Number(m[6]);
        n.lmc = Number(m[7]);
      }
      nodes.push(n);
    },
    finish() {
      if (ctx.nonBlank === 0) ctx.warn('empty output: no nodes of this type', null);
      return ctx.result(nodes);
    },
  };
}

/** Parse ibhosts / ibswitches / ibrouters / ibnodes output. */
export function parseIbnodes(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createIbnodesParser(opts), input);
}
