/**
 * Time formatting. The API speaks epoch ms (UTC); the UI shows the browser's zone and puts UTC
 * in the hover title. `timeZone` is a parameter only so tests are deterministic.
 */

function parts(ms: number, timeZone?: string): Record<string, string> {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) out[p.type] = p.value;
  return out;
}

/** `2026-11-29 18:00:00` in the given (default: browser's) zone. */
export function formatLocal(ms: number, timeZone?: string): string {
  const p = parts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** `2026-11-29 17:00:00 UTC` — used as the hover title. */
export function formatUtc(ms: number): string {
  return `${formatLocal(ms, 'UTC')} UTC`;
}

/** Short form for dense tables and chart axes: `11-29 18:00`. */
export function formatShort(ms: number, timeZone?: string): string {
  const p = parts(ms, timeZone);
  return `${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** `45 ms`, `12.3 s`, `4 min 05 s`, `2 h 07 min`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${String(m % 60).padStart(2, '0')} min`;
}

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago` (future times say `in ...`). */
export function formatAgo(ms: number, now: number): string {
  const d = now - ms;
  const a = Math.abs(d);
  const suffix = (x: string) => (d >= 0 ? `${x} ago` : `in ${x}`);
  if (a < 45_000) return 'just now';
  if (a < 3_600_000) return suffix(`${Math.round(a / 60_000)} min`);
  if (a < 86_400_000) return suffix(`${Math.round(a / 3_600_000)} h`);
  return suffix(`${Math.round(a / 86_400_000)} d`);
}
