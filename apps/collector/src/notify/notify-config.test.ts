import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

describe('notification settings', () => {
  const env = (e: Record<string, string>) => ({ IBWATCH_SOURCE: 'import-only', ...e });
  it('reads the targets, trims a trailing slash and takes the retry policy', () => {
    const c = loadConfig(
      env({
        IBWATCH_ALERTMANAGER_URL: 'http://am.example.net:9093/',
        IBWATCH_WEBHOOK_URL: 'https://chat.example.net/hooks/abc',
        IBWATCH_NOTIFY_ATTEMPTS: '7',
        IBWATCH_ALERTMANAGER_RESEND_S: '120',
      }),
    );
    expect(c.notify).toMatchObject({
      alertmanagerUrl: 'http://am.example.net:9093',
      webhookUrl: 'https://chat.example.net/hooks/abc',
      attempts: 7,
      backoffMs: 2000,
      resendMs: 120_000,
    });
    expect(loadConfig(env({})).notify).toMatchObject({ alertmanagerUrl: null, webhookUrl: null });
  });

  it('refuses a URL that is not http(s) or carries credentials, with every problem at once', () => {
    let problems: string[] = [];
    try {
      loadConfig(
        env({
          IBWATCH_ALERTMANAGER_URL: 'ftp://am',
          IBWATCH_WEBHOOK_URL: 'https://user:pw@chat.example.net/x',
          IBWATCH_NOTIFY_ATTEMPTS: '0',
        }),
      );
    } catch (err) {
      problems = (err as ConfigError).problems;
    }
    expect(problems).toEqual([
      'IBWATCH_NOTIFY_ATTEMPTS="0": expected an integer from 1 to 20',
      'IBWATCH_ALERTMANAGER_URL="ftp://am": expected an http(s)://host[:port][/path] URL',
      "IBWATCH_WEBHOOK_URL: no credentials in the URL (IBWATCH_WEBHOOK_TOKEN carries the webhook's)",
    ]);
  });
});
