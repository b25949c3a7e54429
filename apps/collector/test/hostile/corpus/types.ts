import type { InjectOptions } from 'fastify';
import type { CorpusCase } from '../../reliability/corpus/types.ts';

/**
 * One hostile input and what must come of it. The import formats are the bad-input corpus's
 * (reliability/corpus), run by its runner under its rules; the others:
 * - `nccl-file`: a path handed to `ibwatch import nccl FILE` (read through the same checks,
 *   then imported in process); `refused` means refused before anything was read or stored.
 * - `drop-dir`: a file (or something else) put into the watched nccl drop directory; after one
 *   round it is `imported` (moved to imported/, one run more), a `duplicate` (a content imported
 *   before: moved to imported/, no run more), `failed` (moved to failed/) or `left` where it is,
 *   nothing stored.
 * - `api`: a request to the real app (`inject`, no socket) and the status it must get.
 * `mentions` must match the scan's error or warnings, the refusal, what the drop directory
 * logged, or the reply body.
 */
export type HostileCase =
  | CorpusCase
  | {
      format: 'nccl-file';
      name: string;
      expect: 'refused' | CorpusCase['expect'];
      mentions: RegExp[];
      input: () => string;
    }
  | {
      format: 'drop-dir';
      name: string;
      expect: 'imported' | 'duplicate' | 'failed' | 'left';
      mentions: RegExp[];
      /** The name it gets in the drop directory. */
      file: string;
      /** Puts it there (`path` is dir/file), modified long enough ago to be taken unless the case is about that. */
      input: (path: string) => void;
    }
  | {
      format: 'api';
      name: string;
      expect: number;
      mentions: RegExp[];
      request: () => InjectOptions;
      /** Runs the request inside (a database held busy by another connection...). */
      around?: (send: () => Promise<void>) => Promise<void>;
    };
