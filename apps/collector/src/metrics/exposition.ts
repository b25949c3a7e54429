/** A label value as the text format wants it: backslash, newline and double quote escaped. */
const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

export type Labels = Record<string, string | number>;

/**
 * The Prometheus text format 0.0.4, written directly: the state families of a 10k-GPU fabric
 * (and every port with IBWATCH_METRICS_PORTS=all) are too many series to build as prom-client
 * objects on each scrape. A sample without a figure (null, NaN, infinite) is left out: Prometheus
 * reads an absent series as "no data", while NaN would be a value that every rule compares false.
 */
export class Exposition {
  private out: string[] = [];
  family(name: string, type: 'gauge' | 'counter', help: string, samples: Iterable<[Labels, number | null]>): void {
    this.header(name, type, help);
    for (const [l, v] of samples) this.sample(name, formatLabels(l), v);
  }
  header(name: string, type: 'gauge' | 'counter', help: string): void {
    this.out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  }
  /** One sample with its labels already formatted ({@link formatLabels}): per-port series reuse them. */
  sample(name: string, labels: string, v: number | null): void {
    if (v !== null && Number.isFinite(v)) this.out.push(`${name}${labels} ${v}`);
  }
  text(): string {
    return this.out.length ? `${this.out.join('\n')}\n` : '';
  }
}

/** `{k="v",...}` with the values escaped, or nothing for no labels. */
export function formatLabels(l: Labels): string {
  let s = '';
  for (const k in l) s += `${s ? ',' : ''}${k}="${esc(String(l[k]))}"`;
  return s ? `{${s}}` : '';
}
