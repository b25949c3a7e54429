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
  /**
   * `Buffer.from(text())`, written line by line: the per-port families of 45k GPUs are ~19 MB,
   * and joining them into one string before encoding it cost three times as much.
   */
  bytes(): Buffer {
    let n = 0;
    for (const l of this.out) n += l.length + 1;
    // One byte per character for the ASCII almost all of it is; more room when a line needs it.
    let buf = Buffer.allocUnsafe(n + 65_536);
    let at = 0;
    for (const l of this.out) {
      if (buf.length - at < 3 * l.length + 1) {
        const more = Buffer.allocUnsafe(Math.max(2 * buf.length, at + 3 * l.length + 1));
        buf.copy(more, 0, 0, at);
        buf = more;
      }
      at += buf.write(l, at, 'utf8');
      buf[at++] = 0x0a;
    }
    // Room left over after growing is not kept with the text.
    return buf.length - at > 65_536 ? Buffer.from(buf.subarray(0, at)) : buf.subarray(0, at);
  }
}

/** `{k="v",...}` with the values escaped, or nothing for no labels. */
export function formatLabels(l: Labels): string {
  let s = '';
  for (const k in l) s += `${s ? ',' : ''}${k}="${esc(String(l[k]))}"`;
  return s ? `{${s}}` : '';
}
