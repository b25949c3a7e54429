/**
 * The fleet settings of the collector: the other fabrics' collectors (`IBWATCH_PEERS`), the
 * tokens to read them with (`IBWATCH_PEER_TOKEN`, `IBWATCH_PEER_TOKENS`) and this fabric's own
 * name (`IBWATCH_FABRIC_NAME`). Pure: config.ts passes the environment in and reports the
 * problems with everything else.
 */

export interface Peer {
  name: string;
  /** Base URL of its dashboard and API, without a trailing slash. */
  url: string;
}

export interface PeerSettings {
  peers: Peer[];
  /** Bearer token per peer name, for peers that need one for reads. Never served by any route. */
  peerTokens: Record<string, string>;
  fabricName: string;
  problems: string[];
  notices: string[];
}

const MAX_NAME = 64;
// Control characters would break the header line of a tile and the log; `,` and `=` the list.
const BAD_NAME = /[\p{Cc},=]/u;

function tokenProblem(key: string, token: string): string | null {
  if (token.length < 16) return `${key}: use at least 16 characters`;
  if (/\s/.test(token)) return `${key}: must not contain whitespace`;
  return null;
}

function nameProblem(key: string, name: string): string | null {
  if (!name) return `${key}: a name is empty`;
  if (name.length > MAX_NAME) return `${key}: name ${JSON.stringify(name)} is longer than ${MAX_NAME} characters`;
  if (BAD_NAME.test(name)) return `${key}: name ${JSON.stringify(name)} has a control character`;
  return null;
}

/**
 * A peer URL: http or https, a host, no credentials (they would show in the Fabrics menu and in
 * logs: the token goes in IBWATCH_PEER_TOKENS), no query or fragment (the API paths are appended).
 */
function urlProblem(item: string, raw: string): string | null {
  const expected = `${JSON.stringify(item)} is not name=http(s)://host[:port][/path]`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `IBWATCH_PEERS: ${expected}`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return `IBWATCH_PEERS: ${expected} (${u.protocol.replace(/:$/, '')} is not http or https)`;
  if (!u.hostname) return `IBWATCH_PEERS: ${expected}`;
  if (u.username || u.password)
    return (
      `IBWATCH_PEERS: ${JSON.stringify(item.split('=')[0])} has credentials in its URL; give its token in ` +
      `IBWATCH_PEER_TOKENS`
    );
  if (u.search || u.hash || /[?#]/.test(raw)) return `IBWATCH_PEERS: ${expected} (no query or fragment)`;
  if (/\s/.test(raw)) return `IBWATCH_PEERS: ${expected}`;
  return null;
}

/** Splits `a=x,b=y` into trimmed `[name, value]` pairs at each item's first `=`. */
function pairs(list: string): { item: string; name: string; value: string }[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const eq = item.indexOf('=');
      return eq < 0
        ? { item, name: item, value: '' }
        : { item, name: item.slice(0, eq).trim(), value: item.slice(eq + 1).trim() };
    });
}

const isLoopback = (host: string) => host === 'localhost' || /^127\./.test(host) || host === '[::1]';

/** Reads and checks the fleet settings, collecting every problem. */
export function readPeerSettings(env: NodeJS.ProcessEnv): PeerSettings {
  const problems: string[] = [];
  const notices: string[] = [];
  const fabricName = (env.IBWATCH_FABRIC_NAME ?? '').trim() || 'local';
  const fabricNameProblem = nameProblem('IBWATCH_FABRIC_NAME', fabricName);
  if (fabricNameProblem) problems.push(fabricNameProblem);

  const peers: Peer[] = [];
  const seen = new Set([fabricName.toLowerCase()]);
  for (const { item, name, value } of pairs(env.IBWATCH_PEERS ?? '')) {
    const problem = value
      ? (nameProblem('IBWATCH_PEERS', name) ?? urlProblem(item, value))
      : `IBWATCH_PEERS: ${JSON.stringify(item)} is not name=http(s)://host:port`;
    if (problem) problems.push(problem);
    else if (seen.has(name.toLowerCase()))
      problems.push(
        `IBWATCH_PEERS: the name ${JSON.stringify(name)} is used twice (or is IBWATCH_FABRIC_NAME): each ` +
          `fabric needs its own`,
      );
    else {
      seen.add(name.toLowerCase());
      peers.push({ name, url: value.replace(/\/+$/, '') });
    }
  }

  const peerTokens: Record<string, string> = {};
  const common = (env.IBWATCH_PEER_TOKEN ?? '').trim();
  if (common) {
    const problem = tokenProblem('IBWATCH_PEER_TOKEN', common);
    if (problem) problems.push(problem);
    else for (const p of peers) peerTokens[p.name] = common;
  }
  for (const { name, value } of pairs(env.IBWATCH_PEER_TOKENS ?? '')) {
    // The item itself is not quoted: it may be a token pasted without its name.
    if (!value) problems.push('IBWATCH_PEER_TOKENS: an item is not name=token');
    else if (!peers.some((p) => p.name === name))
      problems.push(`IBWATCH_PEER_TOKENS: ${JSON.stringify(name)} is not a name in IBWATCH_PEERS`);
    else {
      const problem = tokenProblem(`IBWATCH_PEER_TOKENS (${name})`, value);
      if (problem) problems.push(problem);
      else peerTokens[name] = value;
    }
  }
  for (const p of peers) {
    const u = new URL(p.url);
    if (peerTokens[p.name] && u.protocol === 'http:' && !isLoopback(u.hostname))
      notices.push(`the read token for peer ${p.name} goes to ${p.url} in clear text: use https`);
  }
  return { peers, peerTokens, fabricName, problems, notices };
}
