/**
 * The fleet wall's data: this collector's own summary and every peer's, read server-side (the
 * browser reaches only this collector: no CORS, no firewall holes to every fabric), all peers at
 * once, each within the peer timeout, the whole reply kept for a few seconds so that a room of
 * wall screens costs each peer one request per few seconds. What each fabric last said is kept
 * in memory, so a peer that stops answering still shows what it said then, marked stale.
 */
import {
  EMPTY_MEMORY,
  fleetFabricOf,
  fleetReplyOf,
  fleetSummaryOf,
  type FabricSummary,
  type FleetMemory,
  type FleetReading,
  type FleetReply,
} from '@ibwatch/fabric';
import type { Peer } from './peers-config.ts';
import { readPeer } from './peer-client.ts';

/** How long one fleet reply is served again: shorter than the wall's 10 s refresh. */
export const FLEET_CACHE_MS = 5_000;

export interface FleetDeps {
  fabricName: string;
  peers: readonly Peer[];
  peerTokens: Readonly<Record<string, string>>;
  timeoutMs: number;
  ourVersion: string;
  /** This collector's own summary (built from its database; may throw, e.g. database busy). */
  selfSummary: (now: number) => FabricSummary;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  fetch?: typeof fetch;
  now?: () => number;
  cacheMs?: number;
}

export interface Fleet {
  /** The fleet now (at most `cacheMs` old); concurrent callers share one round of requests. */
  reply(): Promise<FleetReply>;
}

export function createFleet(d: FleetDeps): Fleet {
  const now = d.now ?? Date.now;
  const cacheMs = d.cacheMs ?? FLEET_CACHE_MS;
  const memory = new Map<string, FleetMemory>();
  let cached: { at: number; reply: FleetReply } | null = null;
  let inflight: Promise<FleetReply> | null = null;

  const readSelf = (at: number): FleetReading => {
    try {
      return { ok: true, summary: fleetSummaryOf(d.selfSummary(at)), version: d.ourVersion };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, word: 'ERROR', problem: `this collector could not read its own database: ${why}` };
    }
  };

  /** Whether each fabric answered last time: a change is logged once, not on every refresh. */
  const answered = new Map<string, boolean>();
  const logChange = (name: string, reading: FleetReading) => {
    const before = answered.get(name);
    answered.set(name, reading.ok);
    if (reading.ok === before || (reading.ok && before === undefined)) return;
    if (reading.ok) d.log?.info({ fabric: name }, `fleet: ${name} answers again`);
    else d.log?.warn({ fabric: name, problem: reading.problem }, `fleet: ${name} ${reading.word}: ${reading.problem}`);
  };

  const round = async (): Promise<FleetReply> => {
    const at = now();
    const readings = await Promise.all([
      Promise.resolve(readSelf(at)),
      ...d.peers.map((p) =>
        readPeer(p.url, {
          timeoutMs: d.timeoutMs,
          token: d.peerTokens[p.name],
          ourVersion: d.ourVersion,
          fetch: d.fetch,
        }),
      ),
    ]);
    const ids = [
      { name: d.fabricName, self: true, url: null },
      ...d.peers.map((p) => ({ name: p.name, self: false, url: p.url })),
    ];
    const done = now();
    const fabrics = ids.map((id, i) => {
      const reading = readings[i]!;
      logChange(id.name, reading);
      const r = fleetFabricOf(id, reading, memory.get(id.name) ?? EMPTY_MEMORY, done);
      memory.set(id.name, r.memory);
      return r.fabric;
    });
    return fleetReplyOf(fabrics, done);
  };

  return {
    reply() {
      if (cached && now() - cached.at < cacheMs) return Promise.resolve(cached.reply);
      inflight ??= round()
        .then((reply) => {
          cached = { at: now(), reply };
          return reply;
        })
        .finally(() => {
          inflight = null;
        });
      return inflight;
    },
  };
}
