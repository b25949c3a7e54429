/**
 * An nccl-tests output given by path (`ibwatch import nccl FILE`, the drop directory): read
 * through the checks of input/input-file.ts (a regular file, not a FIFO, a device or a
 * dangling symlink) and no larger than {@link NCCL_FILE_MAX_BYTES}. A refusal is a `ParseError`
 * naming the file and why.
 */
import { readInputFile } from '../input/input-file.ts';

/** 64 MiB: an nccl-tests output with NCCL_DEBUG=INFO of a big job is a few MB. */
export const NCCL_FILE_MAX_BYTES = 64 * 1024 * 1024;

export function readNcclFile(path: string): Buffer {
  return readInputFile(path, { format: 'nccl-tests', maxBytes: NCCL_FILE_MAX_BYTES });
}
