import type { FirmwareGroup, FirmwareReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Link } from '../../components/Link.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { href } from '../../router.ts';
import { behind, deviceLabel, staleness, tierName, tiersText } from './firmware.ts';
import './firmware.css';

const DRIFT_FINDINGS = href('/findings', { kind: 'ibdiagnet-firmware-drift', state: 'open' });

function GroupRow({ g }: { g: FirmwareGroup }) {
  return (
    <tr
      data-testid="firmware-group"
      data-device={g.deviceId ?? ''}
      data-psid={g.psid ?? ''}
      data-stragglers={g.stragglers.length}
    >
      <td>{deviceLabel(g)}</td>
      <td className="mono">{g.psid ?? <span className="muted">not reported</span>}</td>
      <td className="num">
        {g.nodes.toLocaleString()}
        <div className="small muted">{tiersText(g)}</div>
      </td>
      <td>
        <ul className="plain">
          {g.versions.map((v) => (
            <li key={v.version}>
              <span className="mono">{v.version}</span> × {v.nodes.toLocaleString()}
              {v.version === g.latest && g.versions.length > 1 && <span className="muted"> (newest)</span>}
            </li>
          ))}
        </ul>
      </td>
      <td className="num">
        {g.psid === null && g.versions.length > 1 ? (
          <span title="No PSID reported: these nodes may run different firmware images">? PSID unknown</span>
        ) : g.stragglers.length > 0 ? (
          `▲ ${g.stragglers.length}`
        ) : (
          '● 0'
        )}
      </td>
    </tr>
  );
}

function Stragglers({ g }: { g: FirmwareGroup }) {
  const id = `stragglers-${g.deviceId ?? 'x'}-${g.psid ?? 'x'}`;
  return (
    <section className="card" aria-labelledby={id} data-testid="firmware-stragglers" data-psid={g.psid ?? ''}>
      <h2 id={id}>
        {deviceLabel(g)} {g.psid}: {g.stragglers.length} of {g.nodes} behind {g.latest}
      </h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Tier</th>
              <th scope="col">Runs</th>
              <th scope="col">Newest in group</th>
              <th scope="col">Last reported</th>
            </tr>
          </thead>
          <tbody>
            {g.stragglers.map((n) => (
              <tr key={n.guid} data-testid="firmware-straggler" data-guid={n.guid} data-version={n.version}>
                <td>
                  <Link href={href('/topology', { sel: `n:${n.guid}` })}>{n.name}</Link>
                  <div className="mono small muted">{n.guid}</div>
                </td>
                <td>{tierName(n.tier)}</td>
                <td className="mono">{n.version}</td>
                <td className="mono">{g.latest}</td>
                <td>
                  <Time at={n.observedAt} short />
                  {n.stale && <div className="small">▲ not in the newest run</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function FirmwareView({ r }: { r: FirmwareReply }) {
  if (r.observedAt === null) {
    return (
      <Empty>
        No firmware known yet: it comes from ibdiagnet runs (IBWATCH_SOURCE=ibdiagnet, or{' '}
        <code>ibwatch import ibdiagnet DIR</code>). {r.unreported > 0 && `${r.unreported.toLocaleString()} nodes wait.`}
      </Empty>
    );
  }
  const old = staleness(r, Date.now());
  const late = behind(r);
  return (
    <>
      {old && (
        <div className="banner tone-warn" role="status" data-testid="firmware-stale">
          ▲ Stale: the newest firmware data is {old} old (ibdiagnet run of <Time at={r.observedAt} />
          ). Versions may have changed since.
        </div>
      )}
      <p className="muted" data-testid="firmware-as-of">
        From the ibdiagnet run of <Time at={r.observedAt} /> · {r.nodes.toLocaleString()} nodes
        {r.unreported > 0 && ` · ${r.unreported.toLocaleString()} nodes of the topology never reported firmware`}
      </p>
      <section className="card" aria-labelledby="fw-summary-h">
        <h2 id="fw-summary-h">Upgrade plan</h2>
        <p className="big-number" data-testid="firmware-behind">
          {late.nodes.toLocaleString()}
        </p>
        <p>
          node{late.nodes === 1 ? '' : 's'} behind the newest version of their firmware image (device and PSID), in{' '}
          {late.groups} image{late.groups === 1 ? '' : 's'}. ibdiagnet's own verdicts:{' '}
          <Link href={DRIFT_FINDINGS}>firmware drift findings</Link>.
        </p>
      </section>
      <section className="card" aria-labelledby="fw-groups-h">
        <h2 id="fw-groups-h">Devices and firmware images</h2>
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">PSID</th>
                <th scope="col">Nodes</th>
                <th scope="col">Versions</th>
                <th scope="col">Behind newest</th>
              </tr>
            </thead>
            <tbody>
              {r.groups.map((g) => (
                <GroupRow key={`${g.deviceId}|${g.psid}`} g={g} />
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {r.groups.some((g) => g.psid === null) && (
        <p className="muted small" data-testid="firmware-no-psid">
          Nodes with no PSID reported (runs with <code>--skip nodes_info</code>; SHARP Aggregation Nodes, which do not
          answer the vendor-specific GeneralInfo) are grouped by device only. They may run different firmware images, so
          an older version among them is not counted as behind.
        </p>
      )}
      {r.groups
        .filter((g) => g.stragglers.length > 0)
        .map((g) => (
          <Stragglers key={`${g.deviceId}|${g.psid}`} g={g} />
        ))}
    </>
  );
}

export default function FirmwarePage() {
  const state = useApi('/api/firmware', { refreshMs: 300_000 });
  return (
    <section data-testid="firmware-page">
      <h1>Firmware</h1>
      <Async state={state} what="firmware">
        {(r) => <FirmwareView r={r} />}
      </Async>
    </section>
  );
}
