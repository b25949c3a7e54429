import { formatLocal, formatShort, formatUtc } from '../lib/time.ts';

/** A time in the browser's zone, UTC on hover. `short` drops the year and seconds. */
export function Time({ at, short = false }: { at: number | null | undefined; short?: boolean }) {
  if (at === null || at === undefined) return <span className="muted">—</span>;
  return (
    <time dateTime={new Date(at).toISOString()} title={formatUtc(at)}>
      {short ? formatShort(at) : formatLocal(at)}
    </time>
  );
}
