import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The packed form of a closed hour's traffic chunks (migration 0019, docs/traffic.md): the chunks
 * of GROUP_CHUNKS consecutive chunk numbers in one row, each compressed on its own so that one
 * port's hour inflates one chunk, not the group. Raw 3.8 KB chunks took a 4 KB page each;
 * compressed ones (~2 KB) could not share a page either, so they share a row instead (a row of
 * ~35 KB fills its overflow pages; only its tail shares a leaf page).
 *
 * Layout: byte 0 the format (1); then per chunk of the group an entry of u32 n (sweeps), u16
 * raw length and u16 compressed length (little-endian; raw length 0: no such chunk); then the
 * compressed chunks in chunk order. A chunk is compressed with raw deflate after a byte-plane
 * shuffle (every slot's byte 0, then every slot's byte 1, ...): the slots' high bytes are
 * mostly alike, and deflate finds runs in a plane it cannot find across 16-byte slots.
 */
export const GROUP_CHUNKS = 16;
/** Bytes of one port's slot in a chunk (traffic-repo.ts). */
export const SLOT_BYTES = 16;
const FORMAT = 1;
const ENTRY = 8;
const HEAD = 1 + GROUP_CHUNKS * ENTRY;

export interface PackChunk {
  /** Chunk number within the group, 0..GROUP_CHUNKS-1. */
  at: number;
  n: number;
  data: Uint8Array;
}

function shuffle(data: Uint8Array): Uint8Array {
  const slots = data.byteLength / SLOT_BYTES;
  const out = new Uint8Array(data.byteLength);
  for (let b = 0; b < SLOT_BYTES; b++) for (let i = 0; i < slots; i++) out[b * slots + i] = data[i * SLOT_BYTES + b]!;
  return out;
}

function unshuffle(data: Uint8Array): Uint8Array {
  const slots = data.byteLength / SLOT_BYTES;
  const out = new Uint8Array(data.byteLength);
  for (let b = 0; b < SLOT_BYTES; b++) for (let i = 0; i < slots; i++) out[i * SLOT_BYTES + b] = data[b * slots + i]!;
  return out;
}

/** One group's chunks (any order, each at most once) as a packed row. */
export function packGroup(chunks: readonly PackChunk[]): Buffer {
  const head = Buffer.alloc(HEAD);
  head[0] = FORMAT;
  const parts: Uint8Array[] = new Array<Uint8Array>(GROUP_CHUNKS);
  for (const c of chunks) {
    if (c.data.byteLength % SLOT_BYTES !== 0 || c.data.byteLength === 0) {
      throw new Error(`traffic chunk of ${c.data.byteLength} bytes is not whole slots`);
    }
    const z = deflateRawSync(shuffle(c.data));
    parts[c.at] = z;
    const e = 1 + c.at * ENTRY;
    head.writeUInt32LE(c.n, e);
    head.writeUInt16LE(c.data.byteLength, e + 4);
    head.writeUInt16LE(z.byteLength, e + 6);
  }
  return Buffer.concat([head, ...parts.filter((p) => p !== undefined)]);
}

/** The chunks of a packed row, in chunk order; `only`: just that chunk of the group. */
export function unpackGroup(row: Uint8Array, only?: number): PackChunk[] {
  const b = Buffer.from(row.buffer, row.byteOffset, row.byteLength);
  if (b[0] !== FORMAT) throw new Error(`unknown traffic pack format ${b[0]}`);
  const out: PackChunk[] = [];
  let pos = HEAD;
  for (let k = 0; k < GROUP_CHUNKS; k++) {
    const e = 1 + k * ENTRY;
    const raw = b.readUInt16LE(e + 4);
    const z = b.readUInt16LE(e + 6);
    if (raw > 0 && (only === undefined || only === k)) {
      const data = unshuffle(inflateRawSync(b.subarray(pos, pos + z)));
      if (data.byteLength !== raw) throw new Error('traffic chunk inflated to the wrong length');
      out.push({ at: k, n: b.readUInt32LE(e), data });
    }
    pos += z;
  }
  return out;
}
