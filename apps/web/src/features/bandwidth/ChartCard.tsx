import type { ReactElement, ReactNode } from 'react';
import { ResponsiveContainer } from 'recharts';

/** A bandwidth chart in its card: a fixed-height responsive plot and a caption saying what it plots. */
export function ChartCard({
  testId,
  height,
  caption,
  data,
  children,
}: {
  testId: string;
  height: number;
  caption: ReactNode;
  /** `data-*` attributes for tests (e.g. the y axis top). */
  data?: Record<`data-${string}`, string | number>;
  children: ReactElement;
}) {
  return (
    <figure className="card" data-testid={testId} {...data}>
      <div style={{ width: '100%', height }}>
        <ResponsiveContainer>{children}</ResponsiveContainer>
      </div>
      <figcaption className="muted small">{caption}</figcaption>
    </figure>
  );
}
