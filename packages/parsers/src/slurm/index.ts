export { expandHostlist, MAX_HOSTLIST_HOSTS } from './hostlist.ts';
export { parseSqueueJson, type SlurmJob, type SqueueResult } from './squeue.ts';
