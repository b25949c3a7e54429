import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownState, type WorklistEntry } from '@ibwatch/fabric';
import { appOf, seedFabric, testContext } from '../test-support.ts';

const ctx = testContext();
let app: FastifyInstance;
beforeAll(async () => {
  await seedFabric(ctx);
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});

/** RFC 4180 rows: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    } else cell += c;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

/** What the page shows in each column the CSV also has, as the CSV writes it. */
const pageColumns = (e: WorklistEntry): Record<string, string> => ({
  rank: String(e.rank),
  severity: e.severity,
  state: shownState(e.state, e.clearedAt),
  end_a: e.a.name,
  guid_a: e.a.guid,
  port_a: String(e.a.port),
  end_b: e.b?.name ?? '',
  guid_b: e.b?.guid ?? '',
  port_b: e.b ? String(e.b.port) : '',
  reasons: e.reasons.join('; '),
  action: e.action,
  first_seen_utc: new Date(e.firstSeen).toISOString(),
  last_seen_utc: new Date(e.lastSeen).toISOString(),
});

describe('GET /api/worklist.csv', () => {
  it('equals the JSON reply the page shows, row by row, for every column both show; cleared says cleared', async () => {
    // The latest scan no longer sees one entry's findings: the page shows it CLEARED.
    const before = (await app.inject('/api/worklist')).json<WorklistEntry[]>();
    expect(before.length).toBeGreaterThan(1);
    const ids = JSON.stringify(before[0]!.findingIds);
    ctx.db.prepare('UPDATE findings SET cleared_at = last_seen WHERE id IN (SELECT value FROM json_each(?))').run(ids);
    const app2 = await appOf(ctx);
    try {
      const json = (await app2.inject('/api/worklist')).json<WorklistEntry[]>();
      const [header, ...rows] = parseCsv((await app2.inject('/api/worklist.csv')).body.slice(1).trimEnd());
      expect(rows).toHaveLength(json.length);
      const cleared = json.filter((e) => e.clearedAt !== null);
      expect(cleared.length).toBeGreaterThan(0);
      json.forEach((e, i) => {
        const csv = Object.fromEntries(header!.map((h, j) => [h, rows[i]![j] ?? '']));
        // Names may be escaped against formulas; the seeded ones start with a letter.
        expect(Object.fromEntries(Object.keys(pageColumns(e)).map((k) => [k, csv[k]])), e.linkKey).toEqual(
          pageColumns(e),
        );
        if (e.clearedAt !== null && e.state !== 'resolved') expect(csv.state).toBe('cleared');
      });
    } finally {
      await app2.close();
    }
  });
});
