/**
 * The scan service as its callers see it: the server, the scheduler, the drop directory, the
 * routes and the CLI hold a ScanService and never reach into the pipeline or the stores.
 */
import type { ScanRow } from '@ibwatch/fabric';
import type { DiagsFormat } from '@ibwatch/parsers';
import type { NcclLabels, NcclWindow } from '../queries/nccl-checks.ts';

export type Trigger = ScanRow['trigger'];

/**
 * Called inside the transaction that stores the run, so that what the caller records about it
 * (the drop directory: the content's hash) commits with the run or not at all.
 */
export type StoredHook = (scanId: number, runId: number) => void;

export interface ScanService {
  run(kind: 'pm' | 'sm' | 'topology' | 'ibdiagnet', trigger: Trigger): Promise<ScanRow>;
  /** Reads the Slurm jobs now (topology scans also do when IBWATCH_SLURM=squeue). */
  runSlurm?(trigger: Trigger): Promise<ScanRow>;
  importIbdiagnet(dir: string, trigger: Trigger): Promise<ScanRow>;
  importNccl(
    text: string,
    labels: NcclLabels,
    name: string,
    trigger: Trigger,
    window?: NcclWindow,
    onStored?: StoredHook,
  ): Promise<{ scan: ScanRow; runId: number | null }>;
  /** `ibwatch import diags FILE`: a pasted iblinkinfo, ibqueryerrors, perfquery, ibstat or ibstatus output. */
  importDiags(path: string, format: DiagsFormat | undefined, trigger: Trigger): Promise<ScanRow>;
  /** `ibwatch import opensm-log FILE`: a copied OpenSM log (a scan row; the follower has none). */
  importOpensmLog(path: string, trigger: Trigger): Promise<ScanRow>;
  isRunning(kind: string): boolean;
}
