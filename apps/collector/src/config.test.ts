import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, requireSource } from './config.ts';

/** The problems a bad environment is reported with (fails the test if it loads). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig()', () => {
  it('uses documented defaults when no IBWATCH_* variable is set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      token: null,
      readsNeedToken: false,
      source: 'import-only',
      sourceSet: false,
      expectedRate: { width: '4X', speed: 'NDR' },
      jitterMs: 2000,
      toolTimeoutMs: 60_000,
      outstandingSmps: 8,
      ibdiagnetPath: 'ibdiagnet',
      ibdiagnetArgs: [],
      nodeNameMap: null,
      ncclDropDir: null,
      autoResolveMin: 60,
      gracePeriodMin: 30,
      logLevel: 'info',
      peers: [],
      retention: { rawDeltaDays: 7, rollupDays: 365, rawOutputDays: 3, scanDays: 90, trafficDays: 365 },
      traffic: { recentPorts: 500, recentHours: 6, waitMinorTps: 1_000_000, waitMajorTps: 10_000_000, waitSweeps: 3 },
      cron: { pm: '0 * * * * *', sm: '30 * * * * *', topology: '0 */10 * * * *', ibdiagnet: '0 0 * * * *' },
    });
    expect(c.dbFile).toMatch(/\.ibwatch\/ibwatch\.db$/);
  });

  it('has no default source: serve and scan refuse to start without IBWATCH_SOURCE, listing the choices', () => {
    const unset = loadConfig({ IBWATCH_SOURCE: '  ' });
    expect(unset).toMatchObject({ source: 'import-only', sourceSet: false });
    expect(() => requireSource(unset)).toThrow(ConfigError);
    expect(() => requireSource(unset)).toThrow(/IBWATCH_SOURCE is not set/);
    for (const k of ['diags', 'ibdiagnet', 'import-only', 'lab'])
      expect(() => requireSource(unset)).toThrow(new RegExp(`IBWATCH_SOURCE=${k} +\\w`));
    for (const k of ['diags', 'ibdiagnet', 'import-only', 'lab']) {
      const set = loadConfig({ IBWATCH_SOURCE: k });
      expect(set).toMatchObject({ source: k, sourceSet: true });
      expect(() => requireSource(set)).not.toThrow();
    }
  });

  it('expects NDR links by default when the source is a real fabric', () => {
    expect(loadConfig({ IBWATCH_SOURCE: 'ibdiagnet' }).expectedRate).toEqual({ width: '4X', speed: 'NDR' });
  });

  it('reads every setting from its variable', () => {
    const c = loadConfig({
      IBWATCH_HOST: '0.0.0.0',
      IBWATCH_PORT: '9090',
      IBWATCH_DB: '/tmp/x/ib.db',
      IBWATCH_TOKEN: 'a-token-of-20-chars!',
      IBWATCH_READS_NEED_TOKEN: 'yes',
      IBWATCH_SOURCE: 'diags',
      IBWATCH_EXPECTED_RATE: '2x xdr',
      IBWATCH_CRON_PM: '*/30 * * * * *',
      IBWATCH_JITTER_MS: '0',
      IBWATCH_TOOL_TIMEOUT_MS: '5000',
      IBWATCH_TOOL_MAX_OUTPUT_BYTES: '2048',
      IBWATCH_OUTSTANDING_SMPS: '2',
      IBWATCH_IBDIAGNET_ARGS: '--pc -P all=1 --get_cable_info',
      IBWATCH_RETENTION_RAW_DAYS: '2',
      IBWATCH_AUTO_RESOLVE_MIN: '15',
      IBWATCH_GRACE_PERIOD_MIN: '0',
      IBWATCH_BODY_LIMIT_BYTES: '4096',
      IBWATCH_LOG_LEVEL: 'debug',
      IBWATCH_PEERS: 'fab-b=http://10.0.0.2:8080/,fab-c=https://c.example:443',
    });
    expect(c).toMatchObject({
      host: '0.0.0.0',
      port: 9090,
      dbFile: '/tmp/x/ib.db',
      token: 'a-token-of-20-chars!',
      readsNeedToken: true,
      source: 'diags',
      expectedRate: { width: '2X', speed: 'XDR' },
      jitterMs: 0,
      toolTimeoutMs: 5000,
      toolMaxOutputBytes: 2048,
      outstandingSmps: 2,
      ibdiagnetArgs: ['--pc', '-P', 'all=1', '--get_cable_info'],
      autoResolveMin: 15,
      gracePeriodMin: 0,
      bodyLimitBytes: 4096,
      logLevel: 'debug',
      peers: [
        { name: 'fab-b', url: 'http://10.0.0.2:8080' },
        { name: 'fab-c', url: 'https://c.example:443' },
      ],
    });
    expect(c.cron.pm).toBe('*/30 * * * * *');
    expect(c.retention.rawDeltaDays).toBe(2);
    expect(c.notices).toEqual([]);
  });

  it(
    'reads the deprecated IBWATCH_AUTO_RESOLVE_SWEEPS as the clean period that many PM sweeps took, with a ' + 'notice',
    () => {
      const c = loadConfig({ IBWATCH_AUTO_RESOLVE_SWEEPS: '3', IBWATCH_CRON_PM: '*/30 * * * * *' });
      expect(c.autoResolveMin).toBe(2);
      expect(c.notices).toEqual([
        expect.stringMatching(/IBWATCH_AUTO_RESOLVE_SWEEPS=3 is deprecated: read as IBWATCH_AUTO_RESOLVE_MIN=2/),
      ]);
      expect(loadConfig({ IBWATCH_AUTO_RESOLVE_SWEEPS: '10' }).autoResolveMin).toBe(10);
      const both = loadConfig({ IBWATCH_AUTO_RESOLVE_SWEEPS: '10', IBWATCH_AUTO_RESOLVE_MIN: '0' });
      expect(both.autoResolveMin).toBe(0);
      expect(both.notices).toEqual([expect.stringContaining('ignored')]);
    },
  );

  it('reports every bad value in one ConfigError', () => {
    const problems = problemsOf({
      IBWATCH_PORT: '70000',
      IBWATCH_SOURCE: 'ssh',
      IBWATCH_READS_NEED_TOKEN: 'maybe',
      IBWATCH_EXPECTED_RATE: '4X FAST',
      IBWATCH_CRON_PM: 'every minute',
      IBWATCH_JITTER_MS: '-1',
      IBWATCH_TOOL_TIMEOUT_MS: '1.5',
      IBWATCH_PEERS: 'nourl',
      IBWATCH_RETENTION_SCAN_DAYS: 'ninety',
      IBWATCH_LOG_LEVEL: 'loud',
      IBWATCH_OUTSTANDING_SMPS: '0',
    });
    expect(problems).toHaveLength(11);
    for (const k of [
      'IBWATCH_PORT',
      'IBWATCH_SOURCE',
      'IBWATCH_READS_NEED_TOKEN',
      'IBWATCH_EXPECTED_RATE',
      'IBWATCH_CRON_PM',
      'IBWATCH_JITTER_MS',
      'IBWATCH_TOOL_TIMEOUT_MS',
      'IBWATCH_PEERS',
      'IBWATCH_RETENTION_SCAN_DAYS',
      'IBWATCH_LOG_LEVEL',
      'IBWATCH_OUTSTANDING_SMPS',
    ]) {
      expect(problems.some((p) => p.startsWith(k))).toBe(true);
    }
    expect(problems.find((p) => p.startsWith('IBWATCH_PORT'))).toContain('from 0 to 65535');
  });

  it('reads IBWATCH_NCCL_TARGETS before the default target table and refuses a bad entry at start-up', () => {
    expect(loadConfig({}).ncclProfiles.every((p) => p.source === 'default')).toBe(true);
    const c = loadConfig({ IBWATCH_NCCL_TARGETS: 'MI300X:1:1x400' });
    expect(c.ncclProfiles[0]).toEqual({
      gpu: 'MI300X',
      gpusPerNode: 1,
      nicsPerNode: 1,
      nicGbps: 400,
      source: 'IBWATCH_NCCL_TARGETS',
    });
    expect(c.ncclProfiles.filter((p) => p.gpu === 'H100')).toHaveLength(1);
    expect(problemsOf({ IBWATCH_NCCL_TARGETS: 'MI300X:one:1x400' })).toEqual([
      'IBWATCH_NCCL_TARGETS: "MI300X:one:1x400": expected GPU:GPUS_PER_NODE:NICSxGBPS[=GBS], ' +
        'e.g. A100:8:4x200 or MI300X:1:1x400=40',
    ]);
  });

  it('reads IBWATCH_SM_GUIDS as canonical GUIDs, once each, and refuses what is not a GUID', () => {
    expect(loadConfig({}).smGuids).toBeNull();
    expect(
      loadConfig({ IBWATCH_SM_GUIDS: ' 0xB83FD203FF000101, b83fd203ff000201,0xb83fd203ff000101 ' }).smGuids,
    ).toEqual(['0xb83fd203ff000101', '0xb83fd203ff000201']);
    expect(problemsOf({ IBWATCH_SM_GUIDS: '0xb83fd203ff000101,head-02' })).toEqual([
      'IBWATCH_SM_GUIDS: "head-02" is not a GUID (e.g. 0xb83fd203ff000101)',
    ]);
  });

  it('reads IBWATCH_METRICS_PORTS (off by default) and refuses other values', () => {
    expect(loadConfig({}).metricsPorts).toBe('off');
    expect(loadConfig({ IBWATCH_METRICS_PORTS: ' Problem ' }).metricsPorts).toBe('problem');
    expect(loadConfig({ IBWATCH_METRICS_PORTS: 'all' }).metricsPorts).toBe('all');
    expect(problemsOf({ IBWATCH_METRICS_PORTS: 'some' })).toEqual([
      'IBWATCH_METRICS_PORTS="some": expected off, problem or all',
    ]);
  });

  it('reads the traffic settings; traffic retention follows the rollups unless set; major >= minor', () => {
    const c = loadConfig({
      IBWATCH_RETENTION_ROLLUP_DAYS: '90',
      IBWATCH_TRAFFIC_RECENT_PORTS: '50',
      IBWATCH_TRAFFIC_RECENT_HOURS: '2',
      IBWATCH_XMIT_WAIT_MINOR: '5000000',
      IBWATCH_XMIT_WAIT_MAJOR: '1000',
      IBWATCH_XMIT_WAIT_SWEEPS: '5',
    });
    expect(c.retention.trafficDays).toBe(90);
    expect(c.traffic).toEqual({
      recentPorts: 50,
      recentHours: 2,
      waitMinorTps: 5_000_000,
      waitMajorTps: 5_000_000,
      waitSweeps: 5,
    });
    expect(loadConfig({ IBWATCH_RETENTION_TRAFFIC_DAYS: '30' }).retention.trafficDays).toBe(30);
    expect(() => loadConfig({ IBWATCH_TRAFFIC_RECENT_HOURS: '0' })).toThrow(/IBWATCH_TRAFFIC_RECENT_HOURS/);
  });

  it('lists the problems in the error message, one per line', () => {
    expect(() => loadConfig({ IBWATCH_PORT: 'x', IBWATCH_JITTER_MS: 'y' })).toThrow(
      /invalid configuration:\n {2}- IBWATCH_PORT.*\n {2}- IBWATCH_JITTER_MS/,
    );
  });

  it.each([
    ['IBWATCH_PORT', '0x1F90'],
    ['IBWATCH_PORT', '8e3'],
    ['IBWATCH_TOOL_TIMEOUT_MS', '50'],
    ['IBWATCH_BODY_LIMIT_BYTES', '100'],
    ['IBWATCH_AUTO_RESOLVE_SWEEPS', '0'],
    ['IBWATCH_AUTO_RESOLVE_MIN', '-1'],
    ['IBWATCH_CRON_SM', '61 * * * * *'],
    ['IBWATCH_EXPECTED_RATE', '4X NDR extra'],
    ['IBWATCH_PEERS', 'a=ftp://host'],
    ['IBWATCH_HOST', 'local host'],
  ])('refuses %s=%j', (key, value) => {
    expect(problemsOf({ [key]: value }).join('\n')).toContain(key);
  });

  it.each(['--pc;rm -rf /', '$(reboot)', '`id`', 'a|b', '--out=/etc', '>/tmp/x', '-o'])(
    'refuses the ibdiagnet argument %j',
    (arg) => {
      expect(problemsOf({ IBWATCH_IBDIAGNET_ARGS: `--pc ${arg}` }).join('\n')).toContain('IBWATCH_IBDIAGNET_ARGS');
    },
  );

  it('refuses a token shorter than 16 characters', () => {
    expect(problemsOf({ IBWATCH_TOKEN: 'short' })).toEqual(['IBWATCH_TOKEN: use at least 16 characters']);
  });

  it('refuses a token with whitespace inside, which no Bearer header could carry', () => {
    expect(problemsOf({ IBWATCH_TOKEN: 'sixteen chars and more' }).join('\n')).toContain('IBWATCH_TOKEN');
  });

  it('treats an empty token as no token (writes disabled)', () => {
    expect(loadConfig({ IBWATCH_TOKEN: '   ' }).token).toBeNull();
    expect(loadConfig({ IBWATCH_TOKEN: '   ' }).tokens).toEqual([]);
  });

  it('reads named tokens from IBWATCH_TOKENS, IBWATCH_TOKEN among them as admin', () => {
    const c = loadConfig({
      IBWATCH_TOKEN: 'single-token-0123456789',
      IBWATCH_TOKENS: ' alice:alice-token-0123456789 , noc-1:has:colons:0123456789,',
    });
    expect(c.tokens).toEqual([
      { name: 'admin', token: 'single-token-0123456789' },
      { name: 'alice', token: 'alice-token-0123456789' },
      { name: 'noc-1', token: 'has:colons:0123456789' },
    ]);
    expect(c.token).toBe('single-token-0123456789');
  });

  it('lists every problem of IBWATCH_TOKENS at once, never printing a token', () => {
    const secret = 'shared-secret-0123456789';
    const problems = problemsOf({
      IBWATCH_TOKEN: 'admin-token-0123456789',
      IBWATCH_TOKENS:
        `admin:other-token-0123456789,bob:short,no-colon-here,bad ` +
        `name:x-token-0123456789,a:${secret},b:${secret},a:third-token-0123456789,c:with space 0123456789`,
    });
    expect(problems).toEqual([
      'IBWATCH_TOKENS entry 1 (admin): the name admin is used twice',
      'IBWATCH_TOKENS entry 2 (bob): use at least 16 characters',
      'IBWATCH_TOKENS entry 3: expected name:token',
      'IBWATCH_TOKENS entry 4 (bad name): name "bad name" must be 1-64 of A-Z a-z 0-9 _ . @ - (letter or digit first)',
      'IBWATCH_TOKENS entry 6 (b): same token as a',
      'IBWATCH_TOKENS entry 7 (a): the name a is used twice',
      'IBWATCH_TOKENS entry 8 (c): must not contain whitespace',
    ]);
    expect(problems.join('\n')).not.toContain(secret);
    expect(problems.join('\n')).not.toContain('admin-token');
  });
});
