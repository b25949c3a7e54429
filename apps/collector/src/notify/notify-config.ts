/**
 * Where alerts go (docs/alerting.md): Alertmanager's v2 API and a generic JSON webhook, and how
 * deliveries are retried. Pure: config.ts passes the environment in and reports the problems with
 * everything else.
 */

export interface NotifySettings {
  /** Alertmanager base URL (IBWATCH_ALERTMANAGER_URL), without a trailing slash; null = not pushed. */
  alertmanagerUrl: string | null;
  /** IBWATCH_WEBHOOK_URL: one POST per open and resolve; null = none. */
  webhookUrl: string | null;
  /** Sent as `Authorization: Bearer` to the webhook (IBWATCH_WEBHOOK_TOKEN). */
  webhookToken: string | null;
  /** The dashboard's address as operators reach it (IBWATCH_PUBLIC_URL), for links back to the worklist. */
  publicUrl: string | null;
  /** Tries per delivery before it is recorded as failed (IBWATCH_NOTIFY_ATTEMPTS). */
  attempts: number;
  /** First retry delay; doubles per retry, jittered (IBWATCH_NOTIFY_BACKOFF_MS). */
  backoffMs: number;
  /** Per HTTP request (IBWATCH_NOTIFY_TIMEOUT_MS). */
  timeoutMs: number;
  /**
   * Re-post active alerts to Alertmanager this often (IBWATCH_ALERTMANAGER_RESEND_S): it ends an
   * alert nobody re-posted after its resolve_timeout (5 min by default).
   */
  resendMs: number;
}

export interface NotifySettingsResult {
  notify: NotifySettings;
  problems: string[];
  notices: string[];
}

const isLoopback = (host: string) => host === 'localhost' || /^127\./.test(host) || host === '[::1]';

function url(env: NodeJS.ProcessEnv, key: string, problems: string[]): string | null {
  const raw = (env[key] ?? '').trim();
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    problems.push(`${key}=${JSON.stringify(raw)}: expected an http(s)://host[:port][/path] URL`);
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) {
    problems.push(`${key}=${JSON.stringify(raw)}: expected an http(s)://host[:port][/path] URL`);
    return null;
  }
  // Credentials in a URL end up in logs and in the failed-deliveries view.
  if (u.username || u.password) {
    problems.push(`${key}: no credentials in the URL (IBWATCH_WEBHOOK_TOKEN carries the webhook's)`);
    return null;
  }
  return raw.replace(/\/+$/, '');
}

/** Reads and checks the notification settings, collecting every problem. */
export function readNotifySettings(
  env: NodeJS.ProcessEnv,
  int: (k: string, d: number, min: number, max: number) => number,
): NotifySettingsResult {
  const problems: string[] = [];
  const notices: string[] = [];
  const alertmanagerUrl = url(env, 'IBWATCH_ALERTMANAGER_URL', problems);
  const webhookUrl = url(env, 'IBWATCH_WEBHOOK_URL', problems);
  const publicUrl = url(env, 'IBWATCH_PUBLIC_URL', problems);
  const webhookToken = (env.IBWATCH_WEBHOOK_TOKEN ?? '').trim() || null;
  if (webhookToken && /\s/.test(webhookToken)) problems.push('IBWATCH_WEBHOOK_TOKEN: must not contain whitespace');
  if (webhookToken && !webhookUrl) notices.push('IBWATCH_WEBHOOK_TOKEN is set without IBWATCH_WEBHOOK_URL: unused');
  if (webhookToken && webhookUrl?.startsWith('http:') && !isLoopback(new URL(webhookUrl).hostname))
    notices.push(`the webhook token goes to ${webhookUrl} in clear text: use https`);
  const notify: NotifySettings = {
    alertmanagerUrl,
    webhookUrl,
    webhookToken,
    publicUrl,
    attempts: int('IBWATCH_NOTIFY_ATTEMPTS', 5, 1, 20),
    backoffMs: int('IBWATCH_NOTIFY_BACKOFF_MS', 2000, 0, 600_000),
    timeoutMs: int('IBWATCH_NOTIFY_TIMEOUT_MS', 10_000, 100, 120_000),
    // Below Alertmanager's default resolve_timeout (5 min) with room for a failed try or two.
    resendMs: int('IBWATCH_ALERTMANAGER_RESEND_S', 60, 1, 3600) * 1000,
  };
  return { notify, problems, notices };
}
