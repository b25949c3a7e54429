import { constants, crc32, deflateRaw } from 'node:zlib';
import { promisify } from 'node:util';
import type { PreparedBody } from './reply-cache.ts';

const deflateRawAsync = promisify(deflateRaw);

/** A body's head, deflated once: many bodies start with it and end with a small tail of their own. */
export interface DeflatedHead {
  bytes: Buffer;
  /** Raw deflate of `bytes` ending in a sync flush (byte-aligned, not final), on first demand. */
  raw: () => Promise<Buffer>;
  crc: number;
}

export function deflatedHead(bytes: Buffer, level = 6): DeflatedHead {
  let raw: Promise<Buffer> | null = null;
  return {
    bytes,
    raw: () => (raw ??= deflateRawAsync(bytes, { level, finishFlush: constants.Z_SYNC_FLUSH })),
    crc: crc32(bytes),
  };
}

/** gzip header: magic, deflate, no flags, no mtime, no extra flags, OS unknown (RFC 1952). */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * `head.bytes` + `tail` gzipped as one member, compressing only the tail: a deflate stream may
 * go on after a sync flush with blocks that do not refer back (RFC 1951), so the head's kept
 * deflate is followed by the tail's own, then the CRC-32 and length of the whole. The topology
 * of 45k GPUs is ~8 MB of head that changes once per topology and a tail of a few kB that
 * changes with every sweep: gzipping all of it again took ~0.3 s of the thread pool per sweep.
 */
export async function gzipWithHead(head: DeflatedHead, tail: Buffer, level = 6): Promise<Buffer> {
  const [raw, rawTail] = await Promise.all([head.raw(), deflateRawAsync(tail, { level })]);
  const trailer = Buffer.alloc(8);
  // Node 20's crc32 of no bytes is 0 whatever the value it starts from.
  trailer.writeUInt32LE(tail.length ? crc32(tail, head.crc) : head.crc, 0);
  trailer.writeUInt32LE((head.bytes.length + tail.length) % 2 ** 32, 4);
  return Buffer.concat([HEADER, raw, rawTail, trailer]);
}

/**
 * Bodies of one reply made of a head that changes rarely (a topology's columns) and a tail of
 * their own (a sweep's colours): the head is deflated again only when it is another Buffer.
 */
export function keptHeadBodies(): (head: Buffer, tail: Buffer) => PreparedBody {
  let kept: DeflatedHead | null = null;
  return (head, tail) => {
    if (kept?.bytes !== head) kept = deflatedHead(head);
    const h = kept;
    return { body: Buffer.concat([head, tail]), gzip: () => gzipWithHead(h, tail) };
  };
}
