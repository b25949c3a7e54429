/**
 * LID resolution from `ibnetdiscover -p` (one process, SMP-based, no SA needed). We do not use
 * `saquery NR` because under ibsim 0.10 it returned a single NodeRecord instead of all of them.
 */
import { ParseError, parseIbnetdiscoverPorts } from '@ibwatch/parsers';

/**
 * Node name -> LID (switch: port-0 LID; CA: port LID) from the connected ports of `ibnetdiscover
 * -p`, read by @ibwatch/parsers. Output the parser cannot use at all gives an empty map: the
 * caller names the node it could not resolve.
 */
export function parsePortsListLids(text: string): Map<string, number> {
  const m = new Map<string, number>();
  let ports;
  try {
    ports = parseIbnetdiscoverPorts(text).value.ports;
  } catch (err) {
    if (err instanceof ParseError) return m;
    throw err;
  }
  for (const p of ports) {
    if (!p.peer) continue;
    m.set(p.description, p.lid);
    m.set(p.peer.description, p.peer.lid);
  }
  return m;
}
