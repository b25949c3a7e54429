/**
 * Decoding of the packed PortInfo speed and width fields of the db_csv PORTS section.
 *
 * ibdiagnet writes LinkSpeedEn/LinkSpeedActv/LinkSpeedSup as one 32-bit number; the comment it
 * prints before START_PORTS says so:
 *   "# They are 32 bit fields. / # Byte1 is regular speeds, / # Byte2 is extended speeds, /
 *    # Byte3 is mlnx ext speeds,"
 * i.e. bits 0-7 = LinkSpeed (SDR=1, DDR=2, QDR=4), bits 8-15 = LinkSpeedExt (FDR=1, EDR=2,
 * HDR=4, NDR=8, XDR=16), bits 16-23 = Mellanox FDR10 (1).
 * Real value: an NDR switch port reads `LinkSpeedActv=2052` (0x804: QDR in byte 0 *and* NDR in
 * byte 1) because the classic field keeps its last value when an extended speed is active —
 * per IBTA, a non-zero extended speed takes precedence, then FDR10, then the classic speed.
 */
import type { LinkSpeed, LinkWidth } from '@ibwatch/fabric';

const CLASSIC: [number, LinkSpeed][] = [
  [1, 'SDR'],
  [2, 'DDR'],
  [4, 'QDR'],
];
const EXTENDED: [number, LinkSpeed][] = [
  [1, 'FDR'],
  [2, 'EDR'],
  [4, 'HDR'],
  [8, 'NDR'],
  [16, 'XDR'],
];
const MLNX: [number, LinkSpeed][] = [[1, 'FDR10']];

/** LinkWidth bits as PortInfo defines them (2X = 16 was added after 12X = 8). */
const WIDTHS: [number, LinkWidth][] = [
  [1, '1X'],
  [16, '2X'],
  [2, '4X'],
  [4, '8X'],
  [8, '12X'],
];

function highest(byte: number, table: [number, LinkSpeed][]): LinkSpeed | undefined {
  for (let i = table.length - 1; i >= 0; i--) if (byte & table[i][0]) return table[i][1];
  return undefined;
}

/** Active speed from the packed 32-bit field; undefined for 0 (port down / `N/A`). */
export function decodeSpeedActive(packed: number): LinkSpeed | undefined {
  if (!(packed > 0)) return undefined;
  return (
    highest((packed >>> 8) & 0xff, EXTENDED) ?? highest((packed >>> 16) & 0xff, MLNX) ?? highest(packed & 0xff, CLASSIC)
  );
}

/** Every speed set in a packed enabled/supported field, slowest first. */
export function decodeSpeedSet(packed: number): LinkSpeed[] {
  const out: LinkSpeed[] = [];
  if (!(packed > 0)) return out;
  for (const [bit, s] of CLASSIC) if (packed & bit) out.push(s);
  if ((packed >>> 16) & 1) out.push('FDR10');
  const ext = (packed >>> 8) & 0xff;
  for (const [bit, s] of EXTENDED) if (ext & bit) out.push(s);
  return out;
}

/** Active width (a single bit); undefined for 0 or a value with no known bit. */
export function decodeWidthActive(bits: number): LinkWidth | undefined {
  if (!(bits > 0)) return undefined;
  let found: LinkWidth | undefined;
  for (const [bit, w] of WIDTHS) if (bits & bit) found = w;
  return found;
}

/** Every width set in an enabled/supported mask, narrowest first (`19` = 1X, 2X, 4X). */
export function decodeWidthSet(bits: number): LinkWidth[] {
  const out: LinkWidth[] = [];
  if (!(bits > 0)) return out;
  for (const [bit, w] of WIDTHS) if (bits & bit) out.push(w);
  return out;
}

/** Lane speed as `.net_dump` / `.lst` print it (`100` Gb/s per lane = NDR; old files `FDR10`). */
export function laneSpeedFromGbps(text: string): LinkSpeed | undefined {
  switch (text.trim()) {
    case '2.5':
      return 'SDR';
    case '5':
      return 'DDR';
    case '10':
      return 'QDR';
    case 'FDR10':
      return 'FDR10';
    case '14':
      return 'FDR';
    case '25':
      return 'EDR';
    case '50':
      return 'HDR';
    case '100':
      return 'NDR';
    case '200':
      return 'XDR';
    default:
      return undefined;
  }
}

/** Width as `.net_dump` / `.lst` print it (`4x`). */
export function widthFromText(text: string): LinkWidth | undefined {
  const t = text.trim().toUpperCase();
  return t === '1X' || t === '2X' || t === '4X' || t === '8X' || t === '12X' ? t : undefined;
}
