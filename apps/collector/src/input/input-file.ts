/**
 * Every input file ibwatch reads (ibdiagnet2 files, nccl-tests outputs given by path) is opened
 * here, and only here, so that what may be read is decided in one place: a regular file, no
 * larger than a limit, opened without blocking.
 *
 * Why: a directory handed to `ibwatch import ibdiagnet` is whatever a user or a script left
 * there. `ibdiagnet2.log -> /dev/zero` was read "whole" until the process died of
 * `std::bad_alloc` at 16 GB; an `ibdiagnet2.sm` that was a FIFO blocked the import (and the
 * event loop) forever; a dangling symlink stopped a drop directory. So:
 * - the type is checked with `stat` before the open (a device is never opened: opening some
 *   has side effects) and again with `fstat` on the open descriptor (the name may have been
 *   swapped in between); only regular files pass, symlinks to regular files included;
 * - the open is `O_NONBLOCK`: a FIFO swapped in after the `stat` cannot block it;
 * - the size is checked, and a reader never reads more than the limit even if the file grows.
 *
 * The refusal is a `ParseError` (format, file, reason): the callers already turn those into a
 * failed import (a primary file) or a skipped file with a warning (a secondary one).
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { ParseError } from '@ibwatch/parsers';

/** Default size limit of one input file: 1 GiB (a 10k-GPU ibdiagnet2.db_csv is ~60 MB). */
export const MAX_INPUT_FILE_BYTES = 1 << 30;

/** An input file opened for reading; `close()` once done. */
export interface InputFile {
  fd: number;
  /** Size when opened. */
  size: number;
  path: string;
  close(): void;
}

export interface OpenInputOptions {
  /** Format name for the `ParseError` (e.g. `ibdiagnet2.log`, `nccl-tests`). */
  format: string;
  /** Refuse a larger file. Default {@link MAX_INPUT_FILE_BYTES}. */
  maxBytes?: number;
}

/** What `st` is, in words, when it is not a regular file. */
export function fileKind(st: Stats): string {
  if (st.isFile()) return 'regular file';
  if (st.isDirectory()) return 'directory';
  if (st.isFIFO()) return 'FIFO';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isBlockDevice()) return 'block device';
  if (st.isSocket()) return 'socket';
  if (st.isSymbolicLink()) return 'symbolic link';
  return 'special file';
}

/** Why `path` cannot be opened as an input, or undefined when it can (checked by `stat`, not opened). */
export function inputFileProblem(path: string, maxBytes = MAX_INPUT_FILE_BYTES): string | undefined {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    return describeOpenError(err);
  }
  return problemOf(st, maxBytes);
}

function problemOf(st: Stats, maxBytes: number): string | undefined {
  if (!st.isFile()) return `not a regular file (${fileKind(st)}); refused`;
  if (st.size > maxBytes) return `${st.size} bytes, more than the ${maxBytes}-byte limit; refused`;
  return undefined;
}

function describeOpenError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file (or a symbolic link to nothing)';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'symbolic link loop';
  return err instanceof Error ? err.message : String(err);
}

/** Open `path` as an input file, or throw `ParseError` saying why it is refused. */
export function openInputFile(path: string, options: OpenInputOptions): InputFile {
  const maxBytes = options.maxBytes ?? MAX_INPUT_FILE_BYTES;
  const refuse = (reason: string): never => {
    throw new ParseError({ format: options.format, file: path, reason });
  };
  const before = inputFileProblem(path, maxBytes);
  if (before !== undefined) refuse(before);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    return refuse(describeOpenError(err));
  }
  const st = fstatSync(fd);
  const problem = problemOf(st, maxBytes);
  if (problem !== undefined) {
    closeSync(fd);
    refuse(problem);
  }
  return { fd, size: st.size, path, close: () => closeSync(fd) };
}

/**
 * Read an open input file into `buf` from where the last read stopped; 0 at the end. Throws
 * `ParseError` once more than `maxBytes` were read in all (`readSoFar`): a file that grows while
 * it is read is not followed past its limit.
 */
export function readInputChunk(file: InputFile, buf: Buffer, readSoFar: number, options: OpenInputOptions): number {
  const maxBytes = options.maxBytes ?? MAX_INPUT_FILE_BYTES;
  const n = readSync(file.fd, buf, 0, buf.length, null);
  if (readSoFar + n > maxBytes) {
    throw new ParseError({
      format: options.format,
      file: file.path,
      reason: `grew past the ${maxBytes}-byte limit while it was read; refused`,
    });
  }
  return n;
}

/** The first `bytes` of an input file (all of it when shorter), after the same checks. */
export function readInputHead(path: string, bytes: number, options: OpenInputOptions): Buffer {
  const f = openInputFile(path, { maxBytes: Number.MAX_SAFE_INTEGER, ...options });
  try {
    const buf = Buffer.alloc(Math.min(bytes, f.size));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(f.fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    f.close();
  }
}

/** A whole input file of at most `maxBytes` (its size is checked before anything is read). */
export function readInputFile(path: string, options: OpenInputOptions): Buffer {
  const f = openInputFile(path, options);
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.allocUnsafe(Math.min(Math.max(f.size, 1), 1 << 20) + 1);
    for (;;) {
      const n = readInputChunk(f, buf, total, options);
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
      total += n;
    }
    return Buffer.concat(chunks, total);
  } finally {
    f.close();
  }
}
