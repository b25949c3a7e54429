import type { ScanRow } from '@ibwatch/fabric';
import type { Context } from '../../../src/context.ts';
import type { CannedOutput } from '../support.ts';

export type Outcome = 'failed' | 'partial' | 'ok';

interface Base {
  name: string;
  /**
   * What the import must end as. 'ok' only for inputs a real fabric produces and the parser
   * is meant to accept unchanged (a 2^60 counter, an upper-case `0X` GUID prefix).
   */
  expect: Outcome;
  /** Each must match the scan's error or one of its warnings (file, line, reason). */
  mentions: RegExp[];
  /** Accepted input that must map onto the fabric already stored (no new nodes or ports). */
  sameFabric?: boolean;
  /** Imported with IBWATCH_IBDIAGNET_STRICT (ibdiagnet2 only). */
  strict?: boolean;
  /** More to check once the case ran (what was stored, a finding opened...). */
  check?: (ctx: Context, row: ScanRow) => void;
}

export type CorpusCase =
  | (Base & { format: 'ibdiagnet2'; input: () => string })
  | (Base & { format: 'nccl-tests'; file: string; input: () => string })
  | (Base & {
      format: 'infiniband-diags';
      scan: 'topology' | 'pm' | 'sm';
      outputs: () => Record<string, CannedOutput>;
    });
