// Entry of the PM worker thread (pm-thread.ts). A worker does not inherit the main thread's
// `--import tsx` on Node 20 (`new Worker('x.ts')` fails with `Unknown file extension ".ts"`),
// so it registers tsx's loader itself before loading the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./pm-thread-worker.ts');
