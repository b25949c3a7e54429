import { prefetch } from './api/prefetch.ts';
import { jobOptions, startEarlyJob } from './features/topology/topology-job.ts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from './components/Link.tsx';
import { Loading } from './components/States.tsx';
import { TokenControl } from './components/TokenControl.tsx';
import { FabricsMenu } from './components/FabricsMenu.tsx';
import { ViewBoundary } from './components/ViewBoundary.tsx';
import { OverviewPage } from './features/overview/OverviewPage.tsx';
import { href, parseQuery, useLocation, type Route } from './router.ts';

// The overview is the wall screen and must paint fast, so only it is in the main chunk;
// every other view (and Recharts with it) loads on demand.
const TopologyPage = lazy(() => {
  // The first frame and the reply are fetched while the page's chunk loads (see
  // api/prefetch.ts, features/topology/topology-job.ts).
  prefetch('/api/topology');
  startEarlyJob(jobOptions(parseQuery(location.search)));
  return import('./features/topology/TopologyPage.tsx');
});
const PortsPage = lazy(() => import('./features/ports/PortsPage.tsx'));
const PortDetailPage = lazy(() => import('./features/ports/PortDetailPage.tsx'));
const WorklistPage = lazy(() => import('./features/worklist/WorklistPage.tsx'));
const SmPage = lazy(() => import('./features/sm/SmPage.tsx'));
const BandwidthPage = lazy(() => import('./features/bandwidth/BandwidthPage.tsx'));
const RunDetailPage = lazy(() => import('./features/bandwidth/RunDetailPage.tsx'));
const ScansPage = lazy(() => import('./features/scans/ScansPage.tsx'));
const FindingsPage = lazy(() => import('./features/findings/FindingsPage.tsx'));
const FirmwarePage = lazy(() => import('./features/firmware/FirmwarePage.tsx'));
const WatchPage = lazy(() => import('./features/watch/WatchPage.tsx'));
const ValidationPage = lazy(() => import('./features/validation/ValidationPage.tsx'));
const FleetPage = lazy(() => import('./features/fleet/FleetPage.tsx'));
const HotLinksPage = lazy(() => import('./features/traffic/HotLinksPage.tsx'));

const NAV: { path: string; label: string; match: Route['name'][] }[] = [
  { path: '/', label: 'Overview', match: ['overview'] },
  { path: '/topology', label: 'Topology', match: ['topology'] },
  { path: '/ports', label: 'Ports', match: ['ports', 'port'] },
  { path: '/traffic', label: 'Hot links', match: ['traffic'] },
  { path: '/worklist', label: 'Worklist', match: ['worklist'] },
  { path: '/watch', label: 'Watch', match: ['watch'] },
  { path: '/validation', label: 'Validation', match: ['validation'] },
  { path: '/findings', label: 'Findings', match: ['findings'] },
  { path: '/firmware', label: 'Firmware', match: ['firmware'] },
  { path: '/sm', label: 'Subnet managers', match: ['sm'] },
  { path: '/bandwidth', label: 'Bandwidth', match: ['bandwidth', 'run'] },
  { path: '/scans', label: 'Scans', match: ['scans'] },
];

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'overview':
      return <OverviewPage />;
    case 'topology':
      return <TopologyPage />;
    case 'ports':
      return <PortsPage />;
    case 'port':
      return <PortDetailPage guid={route.guid} port={route.port} />;
    case 'worklist':
      return <WorklistPage />;
    case 'sm':
      return <SmPage />;
    case 'bandwidth':
      return <BandwidthPage />;
    case 'run':
      return <RunDetailPage id={route.id} />;
    case 'scans':
      return <ScansPage />;
    case 'findings':
      return <FindingsPage />;
    case 'firmware':
      return <FirmwarePage />;
    case 'watch':
      return <WatchPage />;
    case 'validation':
      return <ValidationPage />;
    case 'fleet':
      return <FleetPage />;
    case 'traffic':
      return <HotLinksPage />;
    case 'not-found':
      return (
        <section data-testid="not-found">
          <h1>Page not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <Link href="/">Go to the overview</Link>.
          </p>
        </section>
      );
  }
}

function useDarkMode(kiosk: boolean): [boolean, (d: boolean) => void] {
  const [dark, setDark] = useState(() => document.documentElement.classList.contains('dark'));
  useEffect(() => {
    const html = document.documentElement;
    html.classList.toggle('dark', dark || kiosk);
    html.classList.toggle('kiosk', kiosk);
  }, [dark, kiosk]);
  return [
    dark || kiosk,
    (d: boolean) => {
      setDark(d);
      try {
        localStorage.setItem('ibwatch.theme', d ? 'dark' : 'light');
      } catch {
        // storage disabled: the choice lasts until reload
      }
    },
  ];
}

export function App() {
  const loc = useLocation();
  const kiosk = loc.query.kiosk === '1';
  const [dark, setDark] = useDarkMode(kiosk);
  // The fleet wall is reached from the Fabrics menu, not the main navigation.
  const title =
    NAV.find((n) => n.match.includes(loc.route.name))?.label ?? (loc.route.name === 'fleet' ? 'Fleet' : undefined);
  const wall = loc.route.name === 'overview' || loc.route.name === 'fleet';
  useEffect(() => {
    document.title = title ? `${title} · ibwatch` : 'ibwatch';
  }, [title]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header no-print">
        <Link href="/" className="brand" aria-label="ibwatch overview">
          ib<span>watch</span>
        </Link>
        {!kiosk && (
          <nav aria-label="Main">
            <ul>
              {NAV.map((n) => (
                <li key={n.path}>
                  <Link
                    href={n.path}
                    aria-current={n.match.includes(loc.route.name) ? 'page' : undefined}
                    data-testid={`nav-${n.path === '/' ? 'overview' : n.path.slice(1)}`}
                  >
                    {n.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="header-tools">
          {!kiosk && <FabricsMenu />}
          {wall && (
            <Link
              href={href(loc.path, { kiosk: !kiosk })}
              className="button-link"
              aria-label={kiosk ? 'Leave kiosk mode' : 'Kiosk mode for a wall screen'}
              data-testid="kiosk-toggle"
            >
              {kiosk ? '⤡ Exit kiosk' : '⤢ Kiosk'}
            </Link>
          )}
          {!kiosk && (
            <button
              type="button"
              onClick={() => setDark(!dark)}
              aria-pressed={dark}
              aria-label="Dark mode"
              data-testid="theme-toggle"
            >
              {dark ? '☀ Light' : '☾ Dark'}
            </button>
          )}
          {!kiosk && <TokenControl />}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {/* One boundary per view, new on every path: a view that throws fails alone. */}
        <ViewBoundary key={loc.path} view={title ?? 'page'}>
          <Suspense fallback={<Loading what="view" />}>
            <Page route={loc.route} />
          </Suspense>
        </ViewBoundary>
      </main>
    </>
  );
}
