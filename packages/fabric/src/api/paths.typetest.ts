import type { CounterHistoryReply, FindingDetail, PortDetailReply, ScanRow, WorklistEntry } from '../api.ts';
import type { QueryString, ReplyOf } from './paths.ts';
import type { Same } from './kit.ts';

declare const id: number;
declare const q: QueryString;
type T1 = Same<ReplyOf<'GET', '/api/worklist'>, WorklistEntry[]>;
type T2 = Same<ReplyOf<'GET', `/api/ports/${string}/${number}`>, PortDetailReply>;
type T3 = Same<ReplyOf<'GET', `/api/ports/${string}/${number}/counters${typeof q}`>, CounterHistoryReply>;
type T4 = Same<ReplyOf<'POST', `/api/findings/${typeof id}/ack`>, FindingDetail>;
type T5 = Same<ReplyOf<'GET', `/api/scans${typeof q}`>, ScanRow[]>;
type T6 = Same<ReplyOf<'GET', '/api/nope'>, never>;
type T7 = Same<ReplyOf<'GET', `/api/findings/${number}/ack`>, never>;
export const checks: [T1, T2, T3, T4, T5, T6, T7] = [true, true, true, true, true, true, true];
