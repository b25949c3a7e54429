import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { readPeerSettings } from './peers-config.ts';

const TOKEN_B = 'token-of-plane-2-0123456789';
const TOKEN_C = 'token-of-plane-3-0123456789';

describe('readPeerSettings()', () => {
  it('reads peers, trimming blanks around items and trailing slashes of URLs', () => {
    const s = readPeerSettings({
      IBWATCH_PEERS: ' plane-2=http://10.0.0.2:8080/ , plane-3=https://ib-3.example/ibwatch/',
      IBWATCH_FABRIC_NAME: 'plane-1',
    });
    expect(s).toEqual({
      peers: [
        { name: 'plane-2', url: 'http://10.0.0.2:8080' },
        { name: 'plane-3', url: 'https://ib-3.example/ibwatch' },
      ],
      peerTokens: {},
      fabricName: 'plane-1',
      problems: [],
      notices: [],
    });
  });

  it('names this fabric "local" when IBWATCH_FABRIC_NAME is not set', () => {
    expect(readPeerSettings({}).fabricName).toBe('local');
  });

  it('gives every peer IBWATCH_PEER_TOKEN, and a peer of IBWATCH_PEER_TOKENS its own', () => {
    const s = readPeerSettings({
      IBWATCH_PEERS: 'plane-2=https://ib-2:8080,plane-3=https://ib-3:8080',
      IBWATCH_PEER_TOKEN: TOKEN_B,
      IBWATCH_PEER_TOKENS: `plane-3=${TOKEN_C}`,
    });
    expect(s.peerTokens).toEqual({ 'plane-2': TOKEN_B, 'plane-3': TOKEN_C });
    expect(s.problems).toEqual([]);
  });

  it('keeps an = inside a token (base64 padding)', () => {
    const s = readPeerSettings({
      IBWATCH_PEERS: 'plane-2=https://ib-2:8080',
      IBWATCH_PEER_TOKENS: 'plane-2=YWJjZGVmZ2hpamtsbW5vcA==',
    });
    expect(s.peerTokens['plane-2']).toBe('YWJjZGVmZ2hpamtsbW5vcA==');
  });

  it('warns when a token goes to a peer over plain http on another host', () => {
    const s = readPeerSettings({
      IBWATCH_PEERS: 'plane-2=http://ib-2:8080,lo=http://127.0.0.1:3000',
      IBWATCH_PEER_TOKEN: TOKEN_B,
    });
    expect(s.notices).toEqual(['the read token for peer plane-2 goes to http://ib-2:8080 in clear text: use https']);
  });

  it.each([
    ['a=ftp://host', /ftp is not http or https/],
    ['nourl', /"nourl" is not name=http/],
    ['a=', /"a=" is not name=http/],
    ['=http://host', /a name is empty/],
    ['a=http://', /not name=http/],
    ['a=http://user:secret@host:8080', /credentials in its URL; give its token in IBWATCH_PEER_TOKENS/],
    ['a=http://host:8080/?x=1', /no query or fragment/],
    ['a=http://host:8080/#top', /no query or fragment/],
    ['a=http://host,A=http://other', /"A" is used twice/],
    ['local=http://host', /"local" is used twice \(or is IBWATCH_FABRIC_NAME\)/],
    [`${'x'.repeat(65)}=http://host`, /longer than 64 characters/],
    ['a\tb=http://host', /control character/],
  ])('refuses IBWATCH_PEERS=%j', (peers, message) => {
    const s = readPeerSettings({ IBWATCH_PEERS: peers });
    expect(s.problems).toHaveLength(1);
    expect(s.problems[0]).toMatch(message);
    expect(s.problems[0]).not.toContain('secret');
  });

  it.each([
    [{ IBWATCH_PEER_TOKEN: 'short' }, 'IBWATCH_PEER_TOKEN: use at least 16 characters'],
    [
      { IBWATCH_PEER_TOKENS: 'plane-9=0123456789abcdef0' },
      'IBWATCH_PEER_TOKENS: "plane-9" is not a name in IBWATCH_PEERS',
    ],
    [{ IBWATCH_PEER_TOKENS: 'plane-2=short' }, 'IBWATCH_PEER_TOKENS (plane-2): use at least 16 characters'],
    [{ IBWATCH_PEER_TOKENS: '0123456789abcdef0123' }, 'IBWATCH_PEER_TOKENS: an item is not name=token'],
  ])('refuses the tokens %j without printing them', (env, problem) => {
    const s = readPeerSettings({ IBWATCH_PEERS: 'plane-2=https://ib-2', ...env });
    expect(s.problems).toEqual([problem]);
  });
});

describe('loadConfig() fleet settings', () => {
  it('has defaults: no peers, no tokens, 3 s timeout, this fabric "local"', () => {
    expect(loadConfig({})).toMatchObject({ peers: [], peerTokens: {}, peerTimeoutMs: 3000, fabricName: 'local' });
  });

  it('reads IBWATCH_PEER_TIMEOUT_MS and reports the fleet problems with every other one', () => {
    expect(loadConfig({ IBWATCH_PEER_TIMEOUT_MS: '1500' }).peerTimeoutMs).toBe(1500);
    try {
      loadConfig({ IBWATCH_PEER_TIMEOUT_MS: '50', IBWATCH_PEERS: 'a=ftp://x', IBWATCH_PORT: 'x' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const keys = (err as ConfigError).problems.map((p) => p.split(/[=: ]/)[0]);
      expect(keys.sort()).toEqual(['IBWATCH_PEERS', 'IBWATCH_PEER_TIMEOUT_MS', 'IBWATCH_PORT']);
    }
  });

  it('passes the clear-text notice on to the start-up warnings', () => {
    const c = loadConfig({ IBWATCH_PEERS: 'b=http://ib-b:8080', IBWATCH_PEER_TOKEN: TOKEN_B });
    expect(c.notices).toEqual([expect.stringContaining('in clear text')]);
  });
});
