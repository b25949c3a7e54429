import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';

/**
 * A chart box of a fixed height and the width of its container, whose chart is drawn only once
 * that width is known and above zero. Recharts' ResponsiveContainer renders its chart before it
 * has measured (and again in a hidden card, as a small wall screen hides the nccl card) and then
 * logs "The width(0) and height(0) of chart should be greater than 0".
 */
export function SizedChart({ height, children }: { height: number; children: (width: number) => ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.getBoundingClientRect().width));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return (
    <div ref={box} style={{ width: '100%', height }} data-testid="sized-chart" data-width={width}>
      {width > 0 ? children(width) : null}
    </div>
  );
}
