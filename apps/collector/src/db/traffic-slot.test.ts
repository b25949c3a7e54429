import { describe, expect, it } from 'vitest';
import { readSlot, SLOT_BYTES, writeSlot, writeSlotValues } from './traffic-repo.ts';

describe('hour slots', () => {
  it('writes the same bytes from values as from a slot object, and reads them back', () => {
    const slot = { txAvg: 5000, txMax: 65_535, rxAvg: 1, rxMax: 2500, waitAvg: 2_000_000, waitMax: 2 ** 33 };
    const a = new Uint8Array(2 * SLOT_BYTES);
    const b = new Uint8Array(2 * SLOT_BYTES);
    writeSlot(new DataView(a.buffer), SLOT_BYTES, slot);
    const { txAvg, txMax, rxAvg, rxMax, waitAvg, waitMax } = slot;
    writeSlotValues(new DataView(b.buffer), SLOT_BYTES, txAvg, txMax, rxAvg, rxMax, waitAvg, waitMax);
    expect(Array.from(b)).toEqual(Array.from(a));
    // XmitWait is capped to 32 bits.
    expect(readSlot(b, SLOT_BYTES)).toEqual({ ...slot, waitMax: 0xffff_ffff });
    expect(readSlot(b, 0)).toEqual({ txAvg: 0, txMax: 0, rxAvg: 0, rxMax: 0, waitAvg: 0, waitMax: 0 });
  });
});
