/** Pure helpers of the topology validation view. Rendering is in ValidationPage.tsx. */
import type { ValidationLink, ValidationReportRow } from '@ibwatch/fabric';

/** What each difference is called on the report. */
export const KIND_LABEL: Record<ValidationReportRow['kind'], string> = {
  'wrong-rail': 'Wrong rail',
  'moved-cable': 'Moved cable',
  'missing-link': 'Missing link',
  degraded: 'Slower or narrower',
  'extra-link': 'Extra link',
};

/** `leaf-01 port 3 <-> dgx-0001 mlx5_0 port 1 (4X NDR)`, or `—` for none. */
export function linkText(l: ValidationLink | null): string {
  if (!l) return '—';
  const rate = [l.width, l.speed].filter(Boolean).join(' ');
  return `${l.a.name} port ${l.a.port} <-> ${l.b.name} port ${l.b.port}${rate ? ` (${rate})` : ''}`;
}
