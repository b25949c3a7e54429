import type { Db } from './open-db.ts';

/** A file the nccl drop directory took in, by the SHA-256 of its content. */
export interface DropDirFile {
  sha256: string;
  name: string;
  bytes: number;
  outcome: 'imported' | 'failed';
  scanId: number | null;
  runId: number | null;
  at: number;
}

/** What the drop directory has imported (migration 0009): a content is imported once. */
export function createDropDirRepo(db: Db) {
  const byHash = db.prepare(
    'SELECT sha256, name, bytes, outcome, scan_id AS scanId, run_id AS runId, at FROM drop_dir_files WHERE sha256 = ?',
  );
  const insert = db.prepare(
    `INSERT INTO drop_dir_files (sha256, name, bytes, outcome, scan_id, run_id, at)
     VALUES (@sha256, @name, @bytes, @outcome, @scanId, @runId, @at)
     ON CONFLICT (sha256) DO NOTHING`,
  );
  return {
    get: (sha256: string): DropDirFile | undefined => byHash.get(sha256) as DropDirFile | undefined,
    record: (f: DropDirFile): void => void insert.run(f),
  };
}
