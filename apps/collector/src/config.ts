import { resolve } from 'node:path';
import cron from 'node-cron';
import type { ExpectedRate, LinkSpeed, LinkWidth } from '@ibwatch/fabric';
import {
  DEFAULT_NCCL_PROFILES,
  LANE_GBPS,
  NCCL_MAX_BUSBW_GBS,
  normalizeGuid,
  parseNcclTargets,
  WIDTH_LANES,
  type NcclProfile,
} from '@ibwatch/fabric';
import { cronIntervalMs } from './cadence.ts';
import { readPeerSettings } from './fleet/peers-config.ts';
import { readNotifySettings, type NotifySettings } from './notify/notify-config.ts';
import { parseTokens, type NamedToken } from './tokens.ts';
import { loadImpactConfig, type ImpactConfig } from './config-impact.ts';

export type SourceKind = 'lab' | 'diags' | 'ibdiagnet' | 'import-only';
/** Every scanning source, as `ibwatch serve` lists them when IBWATCH_SOURCE is not set. */
export const SOURCE_CHOICES: Record<SourceKind, string> = {
  diags: 'infiniband-diags on this host (ibnetdiscover, perfquery, sminfo ...)',
  ibdiagnet: 'runs ibdiagnet on a schedule (SM scans with infiniband-diags)',
  'import-only': 'runs no tool: imports and uploads only, nothing scheduled',
  lab: 'the simulated lab fabric in IBWATCH_LAB_DIR (pnpm lab up)',
};
export type MetricsPorts = 'off' | 'problem' | 'all';

/** Every setting of the collector; each comes from one `IBWATCH_*` variable (README table). */
export interface Config {
  host: string;
  port: number;
  dbFile: string;
  /** IBWATCH_TOKEN, the single write token of earlier versions (also in `tokens`, named admin). */
  token: string | null;
  /** Named bearer tokens for writes (IBWATCH_TOKENS and IBWATCH_TOKEN); none = writes refused (401). */
  tokens: NamedToken[];
  /** When true, reads need the token as well. */
  readsNeedToken: boolean;
  /** Check every reply against its route's schema, strictly (reply-check.ts): for tests. */
  checkReplies: boolean;
  /**
   * Where scans come from. IBWATCH_SOURCE has no default: without it `source` is import-only
   * (the read-only commands and imports need none) and `sourceSet` is false, and the commands
   * that scan (`serve`, `scan`) refuse to start (requireSource).
   */
  source: SourceKind;
  sourceSet: boolean;
  labDir: string;
  expectedRate: ExpectedRate;
  cron: { pm: string; sm: string; topology: string; ibdiagnet: string };
  /** Max random delay before a scheduled scan starts, so many collectors don't sweep in step. */
  jitterMs: number;
  toolTimeoutMs: number;
  toolMaxOutputBytes: number;
  /** SMPs in flight while ibnetdiscover, iblinkinfo or ibqueryerrors discover the fabric (`-o`). */
  outstandingSmps: number;
  ibdiagnetPath: string;
  ibdiagnetArgs: string[];
  ibdiagnetOutDir: string;
  /**
   * ibdiagnet2 imports all or nothing: a file of another run, a broken secondary file or a
   * section missing from db_csv fails the import instead of being a warning.
   */
  ibdiagnetStrict: boolean;
  nodeNameMap: string | null;
  /** OpenSM's log, followed where the collector runs on an SM host (IBWATCH_OPENSM_LOG). */
  opensmLog: string | null;
  /** How often the OpenSM log is polled for new lines. */
  opensmLogPollMs: number;
  ncclDropDir: string | null;
  /** busbw (GB/s) above which an nccl-tests result is refused as no measurement. */
  ncclMaxBusbwGBs: number;
  /** The nccl-tests target table: IBWATCH_NCCL_TARGETS profiles first, then the defaults (docs/bandwidth.md). */
  ncclProfiles: readonly NcclProfile[];
  webDist: string;
  retention: { rawDeltaDays: number; rollupDays: number; rawOutputDays: number; scanDays: number; trafficDays: number };
  /** Traffic storage and the sustained-XmitWait finding (docs/traffic.md). */
  traffic: {
    /** Ports kept at sweep resolution each sweep: the busiest by utilisation and by XmitWait. */
    recentPorts: number;
    recentHours: number;
    /** PortXmitWait ticks/s from which a port counts as waiting (minor) and badly so (major). */
    waitMinorTps: number;
    waitMajorTps: number;
    /** Consecutive sweeps at or above the minor threshold before a finding opens. */
    waitSweeps: number;
  };
  /**
   * Minutes a finding must stay cleared (its condition not observed by the scans of its kind)
   * before it resolves by itself. What views show as broken never waits for this.
   */
  autoResolveMin: number;
  /** Minutes after a link first appears during which its error findings are downgraded. */
  gracePeriodMin: number;
  /** The early-warning watch list (analysis/watch.ts, docs/early-warning.md). */
  watch: { windowHours: number; bucketMinutes: number; minPoints: number; horizonDays: number };
  bodyLimitBytes: number;
  logLevel: string;
  /** Other collectors (one per fabric) the dashboard can list: `name=url,name=url`. */
  peers: { name: string; url: string }[];
  /** Bearer token per peer name for reading its summary (fleet wall); never served. */
  peerTokens: Record<string, string>;
  /** How long the fleet wall waits for a peer's answer. */
  peerTimeoutMs: number;
  /** This collector's fabric on the fleet wall. */
  fabricName: string;
  /**
   * Designated SM ports (port or node GUIDs, canonical form); an SM anywhere else is rogue.
   * null: learned from the SMs of the first SM observation (and re-learned on request).
   */
  smGuids: string[] | null;
  /**
   * Per-port series on `/metrics` (IBWATCH_METRICS_PORTS): none, the ports with a problem
   * (errors in the last sweep, a link not ok or not Active), or every port of the last sweep.
   */
  metricsPorts: MetricsPorts;
  /** Alerts pushed to Alertmanager and a webhook (notify/notify-config.ts, docs/alerting.md). */
  notify: NotifySettings;
  /** Blast radius and Slurm jobs (config-impact.ts). */
  impact: ImpactConfig;
  /** Settings accepted but worth a warning at start-up (deprecated variables). */
  notices: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
const WIDTHS = Object.keys(WIDTH_LANES) as LinkWidth[];
const SPEEDS = Object.keys(LANE_GBPS) as LinkSpeed[];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// Extra ibdiagnet arguments are passed as an argv array, never through a shell; still, only
// flag-like tokens and plain values are accepted so a config typo cannot smuggle in a path.
const SAFE_ARG = /^[A-Za-z0-9_.,:=/+-]+$/;

/**
 * Reads the configuration from environment variables, validating everything and reporting
 * every problem at once (a `ConfigError` lists them all), so a bad deployment fails at start-up
 * with one complete message rather than one error per restart.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const str = (k: string, d: string) => (env[k] ?? '').trim() || d;
  const int = (k: string, d: number, min: number, max: number) => {
    const raw = env[k];
    if (raw === undefined || raw.trim() === '') return d;
    // Decimal digits only: Number() would also take "0x1F90" or "8e3" as a port number.
    const n = /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${k}=${JSON.stringify(raw)}: expected an integer from ${min} to ${max}`);
      return d;
    }
    return n;
  };
  const bool = (k: string, d: boolean) => {
    const raw = (env[k] ?? '').trim().toLowerCase();
    if (raw === '') return d;
    if (['1', 'true', 'yes'].includes(raw)) return true;
    if (['0', 'false', 'no'].includes(raw)) return false;
    problems.push(`${k}=${JSON.stringify(env[k])}: expected true or false`);
    return d;
  };
  const cronExpr = (k: string, d: string) => {
    const v = str(k, d);
    if (!cron.validate(v)) problems.push(`${k}=${JSON.stringify(v)}: not a valid cron expression`);
    return v;
  };

  const sourceSet = str('IBWATCH_SOURCE', '') !== '';
  const source = str('IBWATCH_SOURCE', 'import-only') as SourceKind;
  if (!Object.keys(SOURCE_CHOICES).includes(source)) {
    problems.push(`IBWATCH_SOURCE=${JSON.stringify(source)}: expected lab, diags, ibdiagnet or import-only`);
  }
  const token = (env.IBWATCH_TOKEN ?? '').trim() || null;
  const tokens = parseTokens(env, problems);

  const rateRaw = str('IBWATCH_EXPECTED_RATE', source === 'lab' ? '4X HDR' : '4X NDR').toUpperCase();
  const rateParts = rateRaw.split(/\s+/);
  const [w, s] = rateParts as [LinkWidth, LinkSpeed];
  if (rateParts.length !== 2 || !WIDTHS.includes(w) || !SPEEDS.includes(s)) {
    problems.push(`IBWATCH_EXPECTED_RATE=${JSON.stringify(rateRaw)}: expected "<width> <speed>", e.g. "4X NDR"`);
  }

  const ibdiagnetArgs = str('IBWATCH_IBDIAGNET_ARGS', '').split(/\s+/).filter(Boolean);
  for (const a of ibdiagnetArgs) {
    if (!SAFE_ARG.test(a))
      problems.push(`IBWATCH_IBDIAGNET_ARGS: argument ${JSON.stringify(a)} has characters outside [A-Za-z0-9_.,:=/+-]`);
    if (a === '-o' || a.startsWith('--out'))
      problems.push('IBWATCH_IBDIAGNET_ARGS: -o is set by ibwatch (IBWATCH_IBDIAGNET_OUT)');
  }

  const fleet = readPeerSettings(env);
  problems.push(...fleet.problems);

  let smGuids: string[] | null = null;
  const smGuidsRaw = str('IBWATCH_SM_GUIDS', '');
  if (smGuidsRaw) {
    smGuids = [];
    for (const item of smGuidsRaw.split(',').map((x) => x.trim())) {
      const guid = normalizeGuid(item);
      if (!guid) problems.push(`IBWATCH_SM_GUIDS: ${JSON.stringify(item)} is not a GUID (e.g. 0xb83fd203ff000101)`);
      else if (!smGuids.includes(guid)) smGuids.push(guid);
    }
  }

  const metricsPorts = str('IBWATCH_METRICS_PORTS', 'off').toLowerCase() as MetricsPorts;
  if (!['off', 'problem', 'all'].includes(metricsPorts))
    problems.push(`IBWATCH_METRICS_PORTS=${JSON.stringify(metricsPorts)}: expected off, problem or all`);

  const host = str('IBWATCH_HOST', '127.0.0.1');
  if (/\s/.test(host)) problems.push(`IBWATCH_HOST=${JSON.stringify(host)}: expected one address or host name`);
  // Fastify's logger (pino) throws on an unknown level at start-up, after the config was accepted.
  const logLevel = str('IBWATCH_LOG_LEVEL', 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`IBWATCH_LOG_LEVEL=${JSON.stringify(logLevel)}: expected one of ${LOG_LEVELS.join(', ')}`);

  const notifySettings = readNotifySettings(env, int);
  problems.push(...notifySettings.problems);
  const notices: string[] = [...fleet.notices, ...notifySettings.notices];
  const cronPm = cronExpr('IBWATCH_CRON_PM', '0 * * * * *');
  // IBWATCH_AUTO_RESOLVE_SWEEPS counted clean sweeps, whose meaning depended on the cadence (10
  // sweeps were 10 min of PM and 100 min of topology scans) and which also decided what colour a
  // link was. It is still accepted, converted once to the clean period it meant for PM sweeps.
  const sweepsRaw = (env.IBWATCH_AUTO_RESOLVE_SWEEPS ?? '').trim();
  const minRaw = (env.IBWATCH_AUTO_RESOLVE_MIN ?? '').trim();
  let autoResolveMin = int('IBWATCH_AUTO_RESOLVE_MIN', 60, 0, 525_600);
  if (sweepsRaw) {
    const sweeps = int('IBWATCH_AUTO_RESOLVE_SWEEPS', 10, 1, 100_000);
    if (minRaw) notices.push('IBWATCH_AUTO_RESOLVE_SWEEPS is deprecated and ignored: IBWATCH_AUTO_RESOLVE_MIN is set');
    else if (cron.validate(cronPm)) {
      autoResolveMin = Math.max(1, Math.ceil((sweeps * cronIntervalMs(cronPm)) / 60_000));
      notices.push(
        `IBWATCH_AUTO_RESOLVE_SWEEPS=${sweeps} is deprecated: read as IBWATCH_AUTO_RESOLVE_MIN=${autoResolveMin} ` +
          '(that many PM sweeps); set IBWATCH_AUTO_RESOLVE_MIN instead',
      );
    }
  }

  const rollupDays = int('IBWATCH_RETENTION_ROLLUP_DAYS', 365, 1, 3650);
  const waitMinor = int('IBWATCH_XMIT_WAIT_MINOR', 1_000_000, 1, 2 ** 32 - 1);
  const config: Config = {
    host,
    port: int('IBWATCH_PORT', 8080, 0, 65535),
    dbFile: resolve(str('IBWATCH_DB', resolve(REPO_ROOT, '.ibwatch/ibwatch.db'))),
    token,
    tokens,
    readsNeedToken: bool('IBWATCH_READS_NEED_TOKEN', false),
    checkReplies: bool('IBWATCH_CHECK_REPLIES', false),
    source,
    sourceSet,
    labDir: resolve(str('IBWATCH_LAB_DIR', resolve(REPO_ROOT, '.lab'))),
    expectedRate: { width: w, speed: s },
    cron: {
      pm: cronPm,
      sm: cronExpr('IBWATCH_CRON_SM', '30 * * * * *'),
      topology: cronExpr('IBWATCH_CRON_TOPOLOGY', '0 */10 * * * *'),
      ibdiagnet: cronExpr('IBWATCH_CRON_IBDIAGNET', '0 0 * * * *'),
    },
    jitterMs: int('IBWATCH_JITTER_MS', 2000, 0, 600_000),
    toolTimeoutMs: int('IBWATCH_TOOL_TIMEOUT_MS', 60_000, 100, 3_600_000),
    toolMaxOutputBytes: int('IBWATCH_TOOL_MAX_OUTPUT_BYTES', 256 * 1024 * 1024, 1024, 2 ** 31 - 1),
    // The tools' own default is 2 and OpenSM keeps 4 on the wire (max_wire_smps): 8 is still a
    // small window for a switch's SMA, and 2 gives back the tools' default.
    outstandingSmps: int('IBWATCH_OUTSTANDING_SMPS', 8, 1, 64),
    ibdiagnetPath: str('IBWATCH_IBDIAGNET', 'ibdiagnet'),
    ibdiagnetArgs,
    ibdiagnetOutDir: resolve(str('IBWATCH_IBDIAGNET_OUT', resolve(REPO_ROOT, '.ibwatch/ibdiagnet'))),
    ibdiagnetStrict: bool('IBWATCH_IBDIAGNET_STRICT', false),
    nodeNameMap: env.IBWATCH_NODE_NAME_MAP ? resolve(env.IBWATCH_NODE_NAME_MAP) : null,
    opensmLog: env.IBWATCH_OPENSM_LOG ? resolve(env.IBWATCH_OPENSM_LOG) : null,
    opensmLogPollMs: int('IBWATCH_OPENSM_LOG_POLL_MS', 2000, 100, 3_600_000),
    ncclDropDir: env.IBWATCH_NCCL_DROP_DIR ? resolve(env.IBWATCH_NCCL_DROP_DIR) : null,
    ncclMaxBusbwGBs: int('IBWATCH_NCCL_MAX_BUSBW_GBS', NCCL_MAX_BUSBW_GBS, 1, 1_000_000),
    ncclProfiles: ncclProfiles(env.IBWATCH_NCCL_TARGETS, problems),
    webDist: resolve(str('IBWATCH_WEB_DIST', resolve(REPO_ROOT, 'apps/web/dist'))),
    retention: {
      rawDeltaDays: int('IBWATCH_RETENTION_RAW_DAYS', 7, 1, 3650),
      rollupDays,
      rawOutputDays: int('IBWATCH_RETENTION_RAW_OUTPUT_DAYS', 3, 0, 3650),
      scanDays: int('IBWATCH_RETENTION_SCAN_DAYS', 90, 1, 3650),
      trafficDays: int('IBWATCH_RETENTION_TRAFFIC_DAYS', rollupDays, 1, 3650),
    },
    traffic: {
      recentPorts: int('IBWATCH_TRAFFIC_RECENT_PORTS', 500, 0, 100_000),
      recentHours: int('IBWATCH_TRAFFIC_RECENT_HOURS', 6, 1, 168),
      waitMinorTps: waitMinor,
      waitMajorTps: Math.max(waitMinor, int('IBWATCH_XMIT_WAIT_MAJOR', 10_000_000, 1, 2 ** 32 - 1)),
      waitSweeps: int('IBWATCH_XMIT_WAIT_SWEEPS', 3, 1, 1000),
    },
    autoResolveMin,
    gracePeriodMin: int('IBWATCH_GRACE_PERIOD_MIN', 30, 0, 100_000),
    watch: {
      windowHours: int('IBWATCH_WATCH_WINDOW_H', 72, 1, 24 * 90),
      bucketMinutes: int('IBWATCH_WATCH_BUCKET_MIN', 60, 1, 24 * 60),
      minPoints: int('IBWATCH_WATCH_MIN_POINTS', 4, 3, 10_000),
      horizonDays: int('IBWATCH_WATCH_HORIZON_DAYS', 30, 1, 3650),
    },
    bodyLimitBytes: int('IBWATCH_BODY_LIMIT_BYTES', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    logLevel,
    peers: fleet.peers,
    peerTokens: fleet.peerTokens,
    peerTimeoutMs: int('IBWATCH_PEER_TIMEOUT_MS', 3000, 100, 60_000),
    fabricName: fleet.fabricName,
    smGuids,
    metricsPorts,
    notify: notifySettings.notify,
    impact: loadImpactConfig(env, problems),
    notices,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * The commands that scan (`serve`, `scan`) need IBWATCH_SOURCE: a collector started without it
 * next to a running lab used to scan the lab, and one started on a production host would have
 * run tools nobody asked for. Like a metrics agent with no inputs configured, it refuses to
 * start and lists the choices (docs/configuration.md).
 */
export function requireSource(config: Config): void {
  if (config.sourceSet) return;
  const choices = Object.entries(SOURCE_CHOICES).map(([k, v]) => `\n      IBWATCH_SOURCE=${k.padEnd(11)} ${v}`);
  throw new ConfigError([
    `IBWATCH_SOURCE is not set: ibwatch scans no fabric it was not told to. Set one of:${choices.join('')}`,
  ]);
}

/** IBWATCH_NCCL_TARGETS (`GPU:GPUS_PER_NODE:NICSxGBPS[=GBS];...`) before the default table. */
function ncclProfiles(raw: string | undefined, problems: string[]): readonly NcclProfile[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_NCCL_PROFILES;
  try {
    return [...parseNcclTargets(raw), ...DEFAULT_NCCL_PROFILES];
  } catch (e) {
    problems.push(`IBWATCH_NCCL_TARGETS: ${(e as Error).message}`);
    return DEFAULT_NCCL_PROFILES;
  }
}
