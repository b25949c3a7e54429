/**
 * Tells Alertmanager and a webhook about findings (docs/alerting.md). After every scan (and on a
 * timer) each target compares the active findings with what it was last told (notify_state) and
 * delivers the difference: opens, resolves, and for Alertmanager a re-post of every active alert
 * before its resolve_timeout would end it. Each target has one loop, so at most one delivery is
 * in flight per target; a scan only flags work and never waits for it.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import { createNotifyRepo } from '../db/notify-repo.ts';
import type { NameBook } from '../names.ts';
import { postJson, type DeliverDeps, type RetryPolicy } from './deliver.ts';
import { noticeOf, sameLabels, webhookBody, type Notice } from './notice.ts';

export type TargetName = 'alertmanager' | 'webhook';

export interface NotifierOptions {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  log?: { warn(obj: unknown, msg?: string): void };
}

export interface Notifier {
  /** Something may have changed (a scan finished, a finding was resolved by hand): compare and deliver. */
  kick(): void;
  /** Resolves when no target has work left (tests, shutdown). */
  idle(): Promise<void>;
  /** Kicks every `everyMs` (re-posts to Alertmanager, retries of failed webhooks). */
  start(everyMs?: number): void;
  stop(): void;
  targets: TargetName[];
}

interface Known {
  findingId: number;
  notice: Notice;
  sentAt: number;
}

interface Plan {
  active: Notice[];
  opens: Notice[];
  resolves: Notice[];
  /** Known findings whose labels another active finding now carries (reopened on the same subject). */
  superseded: number[];
  due: boolean;
}

/** Active findings against what the target knows: what opens, what resolves, whether a re-post is due. */
function plan(current: Notice[], known: Known[], now: number, resendMs: number | null): Plan {
  const byId = new Map(known.map((k) => [k.findingId, k]));
  const currentIds = new Set(current.map((n) => n.findingId));
  // A finding whose labels changed (its severity moved) is a new alert: the old one resolves.
  const opens = current.filter((n) => {
    const k = byId.get(n.findingId);
    return !k || !sameLabels(k.notice.labels, n.labels);
  });
  const gone = known.filter((k) => !currentIds.has(k.findingId) || opens.some((n) => n.findingId === k.findingId));
  // The same labels still active under another finding (reopened on the same subject): that alert
  // goes on, so the old finding is forgotten without a resolve.
  const carried = (k: Known) =>
    current.some((n) => n.findingId !== k.findingId && sameLabels(n.labels, k.notice.labels));
  const resolves = gone.filter((k) => !carried(k)).map((k) => k.notice);
  const superseded = gone.filter((k) => carried(k) && !currentIds.has(k.findingId)).map((k) => k.findingId);
  const stale = resendMs !== null && known.some((k) => currentIds.has(k.findingId) && k.sentAt <= now - resendMs);
  return { active: current, opens, resolves, superseded, due: opens.length > 0 || resolves.length > 0 || stale };
}

export function createNotifier(db: Db, config: Config, names: NameBook, opts: NotifierOptions = {}): Notifier {
  const n = config.notify;
  const repo = createNotifyRepo(db);
  const now = opts.now ?? Date.now;
  const deps: DeliverDeps = {
    fetch: opts.fetch ?? fetch,
    sleep: opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref())),
    random: opts.random ?? Math.random,
  };
  const policy: RetryPolicy = { attempts: n.attempts, backoffMs: n.backoffMs, timeoutMs: n.timeoutMs };
  const baseUrl = n.publicUrl ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  const targets: TargetName[] = [];
  if (n.alertmanagerUrl) targets.push('alertmanager');
  if (n.webhookUrl) targets.push('webhook');
  const loops = new Map<TargetName, { dirty: boolean; running: Promise<void> | null }>(
    targets.map((t) => [t, { dirty: false, running: null }]),
  );
  let timer: NodeJS.Timeout | null = null;

  const currentNotices = () =>
    repo.alerting().map((f) => noticeOf(f, { repo, names, fabric: config.fabricName, baseUrl }));
  const knownOf = (target: TargetName): Known[] =>
    repo
      .states(target)
      .map((s) => ({ findingId: s.findingId, notice: JSON.parse(s.notice) as Notice, sentAt: s.sentAt }));

  async function alertmanagerCycle(): Promise<void> {
    const at = now();
    const p = plan(currentNotices(), knownOf('alertmanager'), at, n.resendMs);
    repo.forget('alertmanager', p.superseded);
    if (!p.due) return;
    const end = new Date(at).toISOString();
    // Every active alert, each time: Alertmanager keeps an alert only resolve_timeout past its
    // last post. Resolves repeat the labels they were opened with and end now.
    const body = [
      ...p.active.map((x) => ({
        labels: x.labels,
        annotations: x.annotations,
        startsAt: x.startsAt,
        generatorURL: x.link,
      })),
      ...p.resolves.map((x) => ({
        labels: x.labels,
        annotations: x.annotations,
        // startsAt after endsAt is refused (400): a clock step must not block the resolve.
        startsAt: x.startsAt < end ? x.startsAt : end,
        endsAt: end,
        generatorURL: x.link,
      })),
    ];
    const r = await postJson(`${n.alertmanagerUrl}/api/v2/alerts`, body, {}, policy, deps);
    if (!r.ok) {
      repo.recordFailure('alertmanager', 'push', null, r.attempts, r.error, now());
      return;
    }
    repo.sent(
      'alertmanager',
      p.active.map((x) => ({ findingId: x.findingId, notice: JSON.stringify(x) })),
      at,
    );
    repo.forget(
      'alertmanager',
      p.resolves.map((x) => x.findingId).filter((id) => !p.active.some((a) => a.findingId === id)),
    );
    repo.recordDelivered('alertmanager', 'push', null, now());
  }

  async function webhookCycle(): Promise<void> {
    const p = plan(currentNotices(), knownOf('webhook'), now(), null);
    repo.forget('webhook', p.superseded);
    const headers: Record<string, string> = n.webhookToken ? { authorization: `Bearer ${n.webhookToken}` } : {};
    // Resolves first: a finding whose labels changed resolves its old alert before the new opens.
    const events = [
      ...p.resolves.map((x) => ({ event: 'resolve' as const, notice: x })),
      ...p.opens.map((x) => ({ event: 'open' as const, notice: x })),
    ];
    for (const e of events) {
      const at = now();
      const r = await postJson(n.webhookUrl!, webhookBody(e.notice, e.event, at), headers, policy, deps);
      if (!r.ok) {
        // The rest waits for the next cycle: a target that is down gets one event's tries, not all of them.
        repo.recordFailure('webhook', e.event, e.notice.findingId, r.attempts, r.error, now());
        return;
      }
      if (e.event === 'open')
        repo.sent('webhook', [{ findingId: e.notice.findingId, notice: JSON.stringify(e.notice) }], at);
      else if (!p.opens.some((o) => o.findingId === e.notice.findingId)) repo.forget('webhook', [e.notice.findingId]);
      repo.recordDelivered('webhook', e.event, e.notice.findingId, now());
    }
  }

  const cycles: Record<TargetName, () => Promise<void>> = { alertmanager: alertmanagerCycle, webhook: webhookCycle };

  function kickTarget(t: TargetName): void {
    const loop = loops.get(t)!;
    loop.dirty = true;
    if (loop.running) return;
    loop.running = (async () => {
      while (loop.dirty) {
        loop.dirty = false;
        try {
          await cycles[t]();
        } catch (err) {
          // A database that refuses writes, a bug: logged, and the next kick tries again.
          opts.log?.warn({ err, target: t }, 'notification cycle failed');
        }
      }
      loop.running = null;
    })();
  }

  return {
    targets,
    kick() {
      for (const t of targets) kickTarget(t);
    },
    async idle() {
      for (;;) {
        const running = [...loops.values()].map((l) => l.running).filter((x) => x !== null);
        if (!running.length) return;
        await Promise.all(running);
      }
    },
    start(everyMs = Math.min(n.resendMs, 60_000)) {
      if (!targets.length || timer) return;
      timer = setInterval(() => {
        for (const t of targets) kickTarget(t);
      }, everyMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
