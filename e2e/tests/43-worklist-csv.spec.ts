import { expect, test } from './fixtures.ts';

// The worklist CSV is the page: every row the page shows, in its order, with the same rank,
// severity, state (CLEARED for an entry no longer observed, not the lifecycle's `open`), ends,
// reasons and action. Specs before this one leave cleared entries (10's repaired cable, 42's flap).

/** RFC 4180 cells: quoted cells may hold commas, doubled quotes and line breaks. */
function csvRows(text: string): string[][] {
  const out: string[][] = [[]];
  const cells = /("(?:[^"]|"")*"|[^",\r\n]*)(,|\r\n|$)/g;
  for (let m = cells.exec(text); m && m[0] !== ''; m = cells.exec(text)) {
    const raw = m[1]!;
    out.at(-1)!.push(raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw);
    if (m[2] === '\r\n') out.push([]);
  }
  return out.filter((r) => r.length > 1);
}

interface Shown {
  rank: string;
  severity: string;
  state: string;
  endA: string;
  endB: string;
  reasons: string;
  action: string;
}

test('the worklist CSV equals the page, row by row, CLEARED included', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.goto('/worklist');
  await expect(page.getByTestId('worklist-row').first()).toBeVisible();
  // Cron scans run meanwhile: compare a page and a CSV read with nothing changed in between.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('worklist-row').first()).toBeVisible();
    const shown: Shown[] = await page.getByTestId('worklist-row').evaluateAll((trs) =>
      trs.map((tr) => {
        const td = [...tr.querySelectorAll(':scope > td')];
        // innerText: the cell as laid out (its blocks on their own lines), not glued together.
        const text = (i: number) => ((td[i] as HTMLElement | undefined)?.innerText ?? '').replace(/\s+/g, ' ').trim();
        const badge = (i: number) => (td[i]?.querySelector('.badge')?.textContent ?? '').replace(/^\S+\s/, '').trim();
        return {
          rank: text(1),
          severity: badge(2),
          state: badge(td.length - 1),
          endA: text(3),
          endB: text(4),
          reasons: [...(td[6]?.querySelectorAll('.reasons li') ?? [])].map((li) => li.textContent).join('; '),
          action: text(8),
        };
      }),
    );
    const res = await request.get('/api/worklist.csv');
    expect(res.status()).toBe(200);
    const [header, ...rows] = csvRows((await res.text()).replace(/^\uFEFF/, ''));
    const col = (r: string[], name: string) => r[header!.indexOf(name)] ?? '';
    // The page's End cell: `<name> port <n> <guid> LID <lid or —>`, or "remote end unknown".
    const end = (r: string[], x: 'a' | 'b') =>
      col(r, `end_${x}`)
        ? `${col(r, `end_${x}`)} port ${col(r, `port_${x}`)} ${col(r, `guid_${x}`)} LID ${col(r, `lid_${x}`) || '—'}`
        : 'remote end unknown';
    expect(rows.map((r) => col(r, 'rank'))).toEqual(shown.map((s) => s.rank));
    rows.forEach((r, i) => {
      const s = shown[i]!;
      const where = `rank ${s.rank}`;
      expect(col(r, 'severity').toUpperCase(), where).toBe(s.severity);
      expect(col(r, 'state').toUpperCase(), where).toBe(s.state);
      expect(s.endA, where).toBe(end(r, 'a'));
      expect(s.endB, where).toBe(end(r, 'b'));
      expect(col(r, 'reasons'), where).toBe(s.reasons);
      expect(col(r, 'action'), where).toBe(s.action);
    });
    expect(shown.some((s) => s.state === 'CLEARED')).toBe(true);
  }).toPass({ timeout: 60_000, intervals: [2_000] });
});
