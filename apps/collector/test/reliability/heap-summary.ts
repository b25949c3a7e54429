// Heap snapshot figures for the soak (scripts/heap-diff.ts prints them): live objects grouped by
// constructor name, and what changed between two snapshots.
interface HeapSnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapGroup {
  count: number;
  bytes: number;
}

/** Live objects of a snapshot by group: `Map` -> count and self size. */
export function summarizeHeapSnapshot(json: string): Map<string, HeapGroup> {
  const s = JSON.parse(json) as HeapSnapshotFile;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const out = new Map<string, HeapGroup>();
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const type = types[s.nodes[i + typeAt]!]!;
    // Objects and closures by name (the constructor, the function); everything else by kind.
    const key = type === 'object' || type === 'closure' ? `${s.strings[s.nodes[i + nameAt]!]} (${type})` : `(${type})`;
    const g = out.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += s.nodes[i + sizeAt]!;
    out.set(key, g);
  }
  return out;
}

/** Groups by the change of their self size, largest change first. */
export function diffHeaps(a: Map<string, HeapGroup>, b: Map<string, HeapGroup>) {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys]
    .map((key) => {
      const x = a.get(key) ?? { count: 0, bytes: 0 };
      const y = b.get(key) ?? { count: 0, bytes: 0 };
      return { key, countDelta: y.count - x.count, bytesDelta: y.bytes - x.bytes, bytes: y.bytes };
    })
    .sort((p, q) => Math.abs(q.bytesDelta) - Math.abs(p.bytesDelta));
}

export const heapTotal = (m: Map<string, HeapGroup>) =>
  [...m.values()].reduce((t, g) => ({ count: t.count + g.count, bytes: t.bytes + g.bytes }), { count: 0, bytes: 0 });
