/**
 * The part of a peer's `/api/summary` the fleet wall reads, as a JSON schema: a reply that
 * passes can be drawn, one that does not is shown as ERROR with the first field that is wrong.
 * Fields the wall does not read are not checked, and extra fields are allowed (a newer
 * collector of the same API may add some).
 */
import { Ajv } from 'ajv';

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;
const count = { type: 'integer', minimum: 0 } as const;
const nullable = (t: 'string' | 'number') => ({ type: [t, 'null'] }) as const;
const SEVERITIES = ['critical', 'major', 'minor', 'info'];

const linkEnd = {
  type: 'object',
  required: ['guid', 'name', 'port'],
  properties: { guid: str, name: str, port: count },
} as const;

const brokenRow = {
  type: 'object',
  required: ['kind', 'key', 'severity', 'title', 'reasons', 'since', 'acknowledged', 'ends', 'worklistKey'],
  properties: {
    kind: str,
    key: str,
    severity: { enum: SEVERITIES },
    title: str,
    reasons: { type: 'array', items: str },
    since: num,
    acknowledged: { type: 'boolean' },
    ends: { type: 'array', items: linkEnd },
    worklistKey: nullable('string'),
  },
} as const;

const schema = {
  type: 'object',
  required: [
    'generatedAt',
    'fabricStatus',
    'brokenNow',
    'sm',
    'freshness',
    'switches',
    'hcas',
    'links',
    'degradedLinks',
    'downLinks',
  ],
  properties: {
    generatedAt: num,
    fabricStatus: {
      type: 'object',
      required: ['word', 'reasons'],
      properties: {
        word: { enum: ['OK', 'DEGRADED', 'STALE', 'CRITICAL'] },
        reasons: { type: 'array', items: str },
      },
    },
    brokenNow: { type: 'array', items: brokenRow },
    sm: {
      type: 'object',
      required: [
        'status',
        'masterGuid',
        'masterName',
        'masterCount',
        'standbyCount',
        'failoversLast24h',
        'missingCount',
        'rogueCount',
      ],
      properties: {
        status: str,
        masterGuid: nullable('string'),
        masterName: nullable('string'),
        masterCount: count,
        standbyCount: count,
        failoversLast24h: count,
        missingCount: count,
        rogueCount: count,
      },
    },
    freshness: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'state', 'lastOkAt', 'reason'],
        properties: {
          kind: str,
          state: { enum: ['fresh', 'stale', 'pending'] },
          lastOkAt: nullable('number'),
          reason: str,
        },
      },
    },
    switches: count,
    hcas: count,
    links: count,
    degradedLinks: count,
    downLinks: count,
  },
} as const;

const validate = new Ajv({ allErrors: false, strict: true }).compile(schema);

/** Null when `body` has what the fleet wall reads, else the first problem (`/sm/status must be string`). */
export function summaryProblem(body: unknown): string | null {
  if (validate(body)) return null;
  const e = validate.errors?.[0];
  if (!e) return 'invalid';
  const where = e.instancePath || '/';
  const allowed =
    e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
  return `${where} ${e.message ?? 'is invalid'}${allowed}`;
}
