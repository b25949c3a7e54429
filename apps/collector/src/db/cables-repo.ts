import type { CableInfo } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

export type CableSummary = { vendor?: string; partNumber?: string; serialNumber?: string; lengthM?: number };

/** Cable/transceiver info per port, from ibdiagnet runs. */
export function createCablesRepo(db: Db) {
  return {
    store(cables: CableInfo[], at: number): void {
      const st = db.prepare(
        `INSERT INTO cables (node_guid, port_num, info, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (node_guid, port_num) DO UPDATE SET info = excluded.info, updated_at = excluded.updated_at`,
      );
      for (const c of cables) {
        const info: CableSummary = {
          vendor: c.vendor,
          partNumber: c.partNumber,
          serialNumber: c.serialNumber,
          lengthM: c.lengthM,
        };
        st.run(c.nodeGuid, c.portNum, JSON.stringify(info), at);
      }
    },
    /** Keyed `guid/port`. */
    get(key: string): CableSummary | undefined {
      const [guid, port] = key.split('/');
      const r = db
        .prepare('SELECT info FROM cables WHERE node_guid = ? AND port_num = ?')
        .pluck()
        .get(guid, Number(port)) as string | undefined;
      return r ? (JSON.parse(r) as CableSummary) : undefined;
    },
  };
}
export type CablesRepo = ReturnType<typeof createCablesRepo>;
