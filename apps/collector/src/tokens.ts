import { createHash, timingSafeEqual } from 'node:crypto';

/** A bearer token and the name it acts under (who acknowledged, who resolved). */
export interface NamedToken {
  name: string;
  token: string;
}

/** The name `IBWATCH_TOKEN` (the single token of earlier versions) acts under. */
export const SINGLE_TOKEN_NAME = 'admin';
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
const MIN_LENGTH = 16;

/**
 * The write tokens from `IBWATCH_TOKENS=name:token,...` and `IBWATCH_TOKEN` (named
 * {@link SINGLE_TOKEN_NAME}). Every problem goes to `problems`, naming the variable and the
 * entry by position and name, never by its token: configuration errors end up in logs.
 */
export function parseTokens(env: NodeJS.ProcessEnv, problems: string[]): NamedToken[] {
  const tokens: NamedToken[] = [];
  const check = (where: string, t: NamedToken) => {
    if (!NAME.test(t.name))
      problems.push(
        `${where}: name ${JSON.stringify(t.name)} must be 1-64 of A-Z a-z 0-9 _ . @ - (letter or digit first)`,
      );
    if (t.token.length < MIN_LENGTH) problems.push(`${where}: use at least ${MIN_LENGTH} characters`);
    // `Authorization: Bearer <token>` carries one word: a token with blanks could never match.
    else if (/\s/.test(t.token)) problems.push(`${where}: must not contain whitespace`);
    if (tokens.some((o) => o.name === t.name)) problems.push(`${where}: the name ${t.name} is used twice`);
    // Two names on one token: a request with it could not say who sent it.
    else if (tokens.some((o) => o.token === t.token))
      problems.push(`${where}: same token as ${tokens.find((o) => o.token === t.token)!.name}`);
    tokens.push(t);
  };
  const single = (env.IBWATCH_TOKEN ?? '').trim();
  if (single) check('IBWATCH_TOKEN', { name: SINGLE_TOKEN_NAME, token: single });
  const items = (env.IBWATCH_TOKENS ?? '').split(',').map((s) => s.trim());
  items.forEach((item, i) => {
    if (item === '') return; // "a:x,b:y," — a trailing comma is no entry
    const colon = item.indexOf(':');
    const where = `IBWATCH_TOKENS entry ${i + 1}`;
    if (colon <= 0) problems.push(`${where}: expected name:token`);
    else check(`${where} (${item.slice(0, colon)})`, { name: item.slice(0, colon), token: item.slice(colon + 1) });
  });
  return tokens;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Who a request's bearer token names. Every configured token is compared with the presented one
 * in constant time: both sides hashed first (so the comparison length never depends on the
 * guess), `timingSafeEqual` on each, and no early exit (so the time taken does not tell which
 * entry matched, or whether any did).
 */
export class TokenBook {
  private readonly entries: { name: string; digest: Buffer }[];

  constructor(tokens: readonly NamedToken[]) {
    this.entries = tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The token's name for an `Authorization` header value, or null. */
  nameOf(header: string | undefined): string | null {
    if (!header || this.entries.length === 0) return null;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) return null;
    const presented = digest(m[1]!);
    let found: string | null = null;
    for (const e of this.entries) if (timingSafeEqual(e.digest, presented)) found = e.name;
    return found;
  }
}
