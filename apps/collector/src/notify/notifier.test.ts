import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationsReply, Verdict } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createNotifyRepo } from '../db/notify-repo.ts';
import { NameBook } from '../names.ts';
import { syncFindings, TOPOLOGY_KINDS } from '../scans/findings-sync.ts';
import { appOf, testContext } from '../test-support.ts';
import { createNotifier, type NotifierOptions } from './notifier.ts';
import { retryDelay } from './deliver.ts';
import { notifyingScans } from './notifying-scans.ts';
import type { ScanService } from '../scans/types.ts';

interface Got {
  path: string;
  auth: string | undefined;
  body: unknown;
}

/** A local HTTP server standing in for Alertmanager and the webhook: records requests, answers `status()`. */
let server: Server;
let base = '';
const got: Got[] = [];
let status: (path: string) => number = () => 200;
let [inFlight, maxInFlight] = [0, 0];
let hold: Promise<void> | null = null;

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => resolve(s));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const text = await read(req);
    got.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(text) });
    if (hold) await hold;
    const code = status(req.url ?? '');
    res.statusCode = code;
    res.end(code === 200 ? '' : `refused with ${code}`);
    inFlight--;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  got.length = 0;
  status = () => 200;
  maxInFlight = 0;
  hold = null;
});

const SW = '0x0002c90300000001';
const HCA = '0x0002c90300000002';
const T0 = Date.UTC(2026, 11, 1, 12);

function fixture(env: Record<string, string> = {}) {
  const ctx = testContext({
    IBWATCH_ALERTMANAGER_URL: `${base}/am/`,
    IBWATCH_WEBHOOK_URL: `${base}/hook`,
    IBWATCH_WEBHOOK_TOKEN: 'hook-secret-0123456789',
    IBWATCH_PUBLIC_URL: 'https://ibwatch.example.net',
    IBWATCH_FABRIC_NAME: 'cluster-a',
    IBWATCH_NOTIFY_ATTEMPTS: '3',
    IBWATCH_NOTIFY_BACKOFF_MS: '100',
    IBWATCH_ALERTMANAGER_RESEND_S: '60',
    ...env,
  });
  const node = ctx.db.prepare(
    `INSERT INTO nodes (guid, type, description, num_ports, first_seen, last_seen) VALUES (?, ?, ?, 8, 0, 0)`,
  );
  node.run(SW, 'switch', 'MF0;leaf-r0-01:MQM9700/U1');
  node.run(HCA, 'ca', 'dgx-0001 mlx5_0');
  const port = ctx.db.prepare(
    `INSERT INTO ports (node_guid, port_num, remote_guid, remote_port, first_seen, last_seen)
     VALUES (?, ?, ?, ?, 0, 0)`,
  );
  port.run(SW, 3, HCA, 1);
  port.run(HCA, 1, SW, 3);
  const names = NameBook.fromMap([[SW, { name: 'leaf-r0-01', rack: 'R07', u: 40 }]]);
  let clock = T0;
  const sleeps: number[] = [];
  const make = (o: NotifierOptions = {}) =>
    createNotifier(ctx.db, ctx.config, names, {
      now: () => clock,
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0.5,
      ...o,
    });
  const findings = createFindingsRepo(ctx.db);
  const observe = (verdicts: Verdict[]) => syncFindings(findings, verdicts, (k) => TOPOLOGY_KINDS(k), clock, 3_600_000);
  return {
    ctx,
    make,
    observe,
    sleeps,
    tick: (ms: number) => (clock += ms),
    now: () => clock,
  };
}

const degraded = (severity: Verdict['severity'] = 'major'): Verdict => ({
  kind: 'link-degraded-width',
  severity,
  subject: { kind: 'port', port: { nodeGuid: SW, portNum: 3 } },
  title: 'leaf-r0-01 port 3: width 4X->2X',
  short: 'width 4X->2X',
  evidence: {},
});

const amPosts = () => got.filter((g) => g.path === '/am/api/v2/alerts').map((g) => g.body as Record<string, unknown>[]);
const hookPosts = () => got.filter((g) => g.path === '/hook');

describe('notifier', () => {
  it('pushes an opened finding to Alertmanager with the labels operators route on and a worklist link', async () => {
    const f = fixture();
    try {
      f.observe([degraded()]);
      const n = f.make();
      n.kick();
      await n.idle();
      expect(amPosts()).toHaveLength(1);
      const [alert] = amPosts()[0]!;
      expect(alert).toEqual({
        labels: {
          alertname: 'IbwatchFinding',
          fabric: 'cluster-a',
          severity: 'major',
          kind: 'link-degraded-width',
          node: 'leaf-r0-01',
          rack: 'R07',
          port: '3',
          remote_node: 'dgx-0001 mlx5_0',
          remote_port: '1',
        },
        annotations: expect.objectContaining({
          summary: 'leaf-r0-01 port 3: width 4X->2X',
          description: 'width 4X->2X',
        }),
        startsAt: new Date(T0).toISOString(),
        generatorURL: `https://ibwatch.example.net/worklist?focus=${encodeURIComponent(`${SW}/3~${HCA}/1`)}`,
      });
      expect(alert).not.toHaveProperty('endsAt');
    } finally {
      f.ctx.cleanup();
    }
  });

  it('sends one webhook POST per open and per resolve, with the bearer token and the documented body', async () => {
    const f = fixture();
    try {
      f.observe([degraded()]);
      const n = f.make();
      n.kick();
      await n.idle();
      expect(hookPosts()).toHaveLength(1);
      expect(hookPosts()[0]!.auth).toBe('Bearer hook-secret-0123456789');
      expect(hookPosts()[0]!.body).toMatchObject({
        event: 'open',
        fabric: 'cluster-a',
        finding: {
          kind: 'link-degraded-width',
          severity: 'major',
          reason: 'width 4X->2X',
          node: 'leaf-r0-01',
          port: 3,
          rack: 'R07',
          remoteNode: 'dgx-0001 mlx5_0',
          remotePort: 1,
        },
        link: expect.stringMatching(/^https:\/\/ibwatch\.example\.net\/worklist\?focus=/),
      });
      // Nothing changed: nothing sent again.
      n.kick();
      await n.idle();
      expect(hookPosts()).toHaveLength(1);
      f.tick(60_000);
      f.observe([]);
      n.kick();
      await n.idle();
      expect(hookPosts().map((g) => (g.body as { event: string }).event)).toEqual(['open', 'resolve']);
    } finally {
      f.ctx.cleanup();
    }
  });

  it('re-posts active alerts to Alertmanager only once the resend cadence has passed', async () => {
    const f = fixture();
    try {
      f.observe([degraded()]);
      const n = f.make();
      n.kick();
      await n.idle();
      f.tick(30_000);
      n.kick();
      await n.idle();
      expect(amPosts()).toHaveLength(1);
      f.tick(30_000);
      n.kick();
      await n.idle();
      expect(amPosts()).toHaveLength(2);
      expect(amPosts()[1]).toEqual([expect.objectContaining({ startsAt: new Date(T0).toISOString() })]);
      expect(amPosts()[1]![0]).not.toHaveProperty('endsAt');
    } finally {
      f.ctx.cleanup();
    }
  });

  it('resolves a cleared finding in Alertmanager by re-posting its labels with endsAt = now', async () => {
    const f = fixture();
    try {
      f.observe([degraded()]);
      const n = f.make();
      n.kick();
      await n.idle();
      const opened = amPosts()[0]![0]!;
      f.tick(90_000);
      f.observe([]);
      n.kick();
      await n.idle();
      expect(amPosts()).toHaveLength(2);
      expect(amPosts()[1]).toEqual([{ ...opened, endsAt: new Date(f.now()).toISOString() }]);
      expect(createNotifyRepo(f.ctx.db).states('alertmanager')).toEqual([]);
    } finally {
      f.ctx.cleanup();
    }
  });

  it('resolves the old alert and opens a new one when a finding changes severity', async () => {
    const f = fixture();
    try {
      f.observe([degraded('major')]);
      const n = f.make();
      n.kick();
      await n.idle();
      f.tick(1000);
      f.observe([degraded('critical')]);
      n.kick();
      await n.idle();
      const last = amPosts()[1]!;
      expect(last.map((a) => [(a.labels as Record<string, string>).severity, 'endsAt' in a])).toEqual([
        ['critical', false],
        ['major', true],
      ]);
      expect(hookPosts().map((g) => (g.body as { event: string }).event)).toEqual(['open', 'resolve', 'open']);
    } finally {
      f.ctx.cleanup();
    }
  });

  it('retries with jittered exponential backoff and delivers once the target answers', async () => {
    const f = fixture({ IBWATCH_ALERTMANAGER_URL: '' });
    try {
      let calls = 0;
      status = () => (++calls <= 2 ? 503 : 200);
      f.observe([degraded()]);
      const n = f.make();
      n.kick();
      await n.idle();
      expect(hookPosts()).toHaveLength(3);
      // random() = 0.5 is the middle of the jitter: the plain doubling of 100 ms.
      expect(f.sleeps).toEqual([100, 200]);
      expect(createNotifyRepo(f.ctx.db).failures()).toEqual([]);
      expect(retryDelay(3, 100, () => 0)).toBe(200);
      expect(retryDelay(3, 100, () => 0.999)).toBe(600);
      expect(retryDelay(30, 1000, () => 0.5)).toBe(60_000);
    } finally {
      f.ctx.cleanup();
    }
  });

  it('records a delivery that failed all its attempts, adds later failures to it, and marks it delivered', async () => {
    const f = fixture({ IBWATCH_ALERTMANAGER_URL: '' });
    try {
      status = () => 503;
      f.observe([degraded()]);
      const n = f.make();
      n.kick();
      await n.idle();
      const repo = createNotifyRepo(f.ctx.db);
      const [first] = repo.failures();
      expect(first).toMatchObject({ target: 'webhook', event: 'open', attempts: 3, deliveredAt: null });
      expect(first!.error).toBe('HTTP 503: refused with 503');
      f.tick(60_000);
      n.kick();
      await n.idle();
      expect(repo.failures()).toEqual([expect.objectContaining({ id: first!.id, attempts: 6, lastAt: f.now() })]);
      const app = await appOf(f.ctx);
      const reply = (await app.inject('/api/notifications')).json<NotificationsReply>();
      expect(reply.targets).toEqual([{ name: 'webhook', origin: base, active: 0, lastSentAt: null }]);
      expect(reply.failures).toEqual([expect.objectContaining({ target: 'webhook', attempts: 6 })]);
      status = () => 200;
      f.tick(60_000);
      n.kick();
      await n.idle();
      expect(repo.failures()).toEqual([expect.objectContaining({ id: first!.id, deliveredAt: f.now() })]);
      const after = (await app.inject('/api/notifications')).json<NotificationsReply>();
      expect(after.targets).toEqual([{ name: 'webhook', origin: base, active: 1, lastSentAt: f.now() }]);
      await app.close();
    } finally {
      f.ctx.cleanup();
    }
  }, 30_000); // nine tries with backoff and an app start: seconds on a loaded machine

  it('does not retry a request the target refuses as wrong (4xx)', async () => {
    const f = fixture({ IBWATCH_WEBHOOK_URL: '' });
    try {
      status = () => 400;
      f.observe([degraded()]);
      const n = f.make();
      n.kick();
      await n.idle();
      expect(amPosts()).toHaveLength(1);
      expect(createNotifyRepo(f.ctx.db).failures()).toEqual([
        expect.objectContaining({ target: 'alertmanager', event: 'push', findingId: null, attempts: 1 }),
      ]);
    } finally {
      f.ctx.cleanup();
    }
  });

  it('goes on from the stored state after a restart instead of announcing everything again', async () => {
    const f = fixture();
    try {
      f.observe([degraded()]);
      const first = f.make();
      first.kick();
      await first.idle();
      expect(got).toHaveLength(2);
      const second = f.make();
      second.kick();
      await second.idle();
      expect(got).toHaveLength(2);
    } finally {
      f.ctx.cleanup();
    }
  });

  it('keeps at most one delivery in flight per target however often it is kicked', async () => {
    const f = fixture({ IBWATCH_WEBHOOK_URL: '' });
    try {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      f.observe([degraded()]);
      const n = f.make();
      for (let i = 0; i < 5; i++) {
        n.kick();
        f.tick(61_000);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(maxInFlight).toBe(1);
      release();
      await n.idle();
      expect(maxInFlight).toBe(1);
      // The kicks during the held delivery were folded into one more cycle (a re-post was due).
      expect(amPosts()).toHaveLength(2);
    } finally {
      f.ctx.cleanup();
    }
  });

  it('tells the notifier after every scan without making the scan wait for the delivery', async () => {
    const f = fixture({ IBWATCH_WEBHOOK_URL: '' });
    try {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      const row = { id: 7, status: 'ok' } as Awaited<ReturnType<ScanService['run']>>;
      const inner = {
        isRunning: () => false,
        run: async () => {
          f.observe([degraded()]);
          return row;
        },
      } as unknown as ScanService;
      const n = f.make();
      const scans = notifyingScans(inner, n);
      // The delivery is held by the server: the scan still returns at once.
      expect(await scans.run('topology', 'cli')).toBe(row);
      await new Promise((r) => setTimeout(r, 50));
      expect(amPosts()).toHaveLength(1);
      release();
      await n.idle();
      // Without a target the service is returned as it is.
      const none = createNotifier(
        f.ctx.db,
        { ...f.ctx.config, notify: { ...f.ctx.config.notify, alertmanagerUrl: null } },
        new NameBook(),
      );
      expect(notifyingScans(inner, none)).toBe(inner);
    } finally {
      f.ctx.cleanup();
    }
  });
});
