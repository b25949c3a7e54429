import type { FindingImpact } from '@ibwatch/fabric';

/** `3 hosts · 24 GPUs · 2 jobs · drain dgx-0001 dgx-0002`: who a finding's cable hurts. */
export function impactBrief(i: FindingImpact): string {
  const n = (k: number, one: string) => `${k} ${one}${k === 1 ? '' : 's'}`;
  const parts = [n(i.hosts, 'host'), n(i.gpus, 'GPU')];
  if (i.jobs) parts.push(n(i.jobs, 'job'));
  if (i.drain.length) parts.push(`drain ${i.drain.slice(0, 4).join(' ')}${i.drain.length > 4 ? ' …' : ''}`);
  return parts.join(' · ');
}
