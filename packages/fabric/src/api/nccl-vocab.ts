/** Words of nccl-tests runs shared by the overview and the runs (see ./nccl.ts). */
import { Nullable, type Static, Str } from './kit.ts';

export const NcclVerdictSchema = Str(['pass', 'fail', 'host-memory-fallback', 'unknown']);
export type NcclVerdict = Static<typeof NcclVerdictSchema>;

/** One host (NVLink only) or several (over the fabric); null when the log and labels do not say. */
export const NcclRunScopeSchema = Nullable(Str(['single-node', 'multi-node']));
export type NcclRunScope = Static<typeof NcclRunScopeSchema>;
