import type { FabricSummary } from '@ibwatch/fabric';

type Examples = FabricSummary['exampleNames'];

/**
 * Search placeholders named after the fabric shown (a real switch and host), so an example is
 * something the search finds; neutral words when the fabric has none yet.
 */
export function searchPlaceholders(e: Examples | undefined): {
  node: string;
  find: string;
  switch: string;
  rack: string;
} {
  const sw = e?.switch ?? null;
  const host = e?.host ?? null;
  const both = [host, sw].filter((x): x is string => x !== null);
  return {
    node: both.length ? `e.g. ${both.join(' or ')}` : 'host, switch, GUID or LID',
    find: both.length ? `e.g. ${both.join(', ')} or a GUID` : 'host, switch or GUID',
    switch: sw ? `e.g. ${sw}` : 'switch name',
    rack: e?.rack ? `e.g. ${e.rack}` : 'rack name',
  };
}

/** The names {@link searchPlaceholders} takes, from a loaded topology: its first leaf (else switch) and host. */
export function examplesOf(t: {
  vocab: { nodeType: readonly string[]; tier: readonly string[] };
  nodes: {
    name: readonly string[];
    type: readonly number[];
    tier: readonly number[];
    host: readonly (string | null)[];
  };
}): Examples {
  const { nodes, vocab } = t;
  const isSwitch = (i: number) => vocab.nodeType[nodes.type[i]!] === 'switch';
  const idx = nodes.name.map((_, i) => i);
  const sw = idx.find((i) => isSwitch(i) && vocab.tier[nodes.tier[i]!] === 'leaf') ?? idx.find(isSwitch);
  const host = nodes.host.find((h): h is string => h !== null) ?? null;
  return { switch: sw === undefined ? null : nodes.name[sw]!, host, rack: null };
}
