import type { NcclRunDetailReply } from '@ibwatch/fabric';
import { Badge } from '../../components/Badge.tsx';
import { FindingsTable } from '../../components/FindingsTable.tsx';
import { Link } from '../../components/Link.tsx';
import { Time } from '../../components/Time.tsx';
import { correlationText, splitCorrelated } from './bandwidth.ts';

/**
 * The findings around a run: on its hosts' links and the switches above them during its window,
 * the subnet manager's, and the run's own verdicts; with what "around" covered, so that an empty
 * list says something true.
 */
export function Correlation({ d }: { d: NcclRunDetailReply }) {
  const { onPath, subnet, own } = splitCorrelated(d.correlatedFindings);
  const c = d.correlation;
  return (
    <section aria-labelledby="run-around">
      <h2 id="run-around">
        Fabric findings around this run{' '}
        {c.flagged && (
          <Badge
            look={{ icon: '⚑', label: `FLAGGED: ${c.pathFindings} on its paths`, tone: 'bad' }}
            testid="run-flagged"
          />
        )}
      </h2>
      <p className="muted" data-testid="run-correlation" data-hosts={c.hosts.length} data-links={c.links}>
        <Time at={c.from} /> → <Time at={c.to} />: {correlationText(d)}
        {c.hosts.length === 0 && (
          <>
            {' '}
            See <Link href="/findings">all findings</Link>.
          </>
        )}
      </p>
      {c.hosts.length > 0 && (
        <FindingsTable rows={onPath} empty="● No finding on this run's links and switches during the run." />
      )}
      {subnet.length > 0 && (
        <>
          <h3>Subnet manager during the run</h3>
          <FindingsTable rows={subnet} />
        </>
      )}
      <h3>This run's own findings</h3>
      <FindingsTable rows={own} empty="● No finding about the run itself (target, GPUDirect RDMA, regression)." />
    </section>
  );
}
