import { useApi } from '../../api/useApi.ts';
import { Link } from '../../components/Link.tsx';
import { watchCountText } from './watch.ts';

/** `N ports on watch`, linking to the watch list; nothing until the list has loaded. */
export function WatchCount() {
  const { data } = useApi('/api/watch', { refreshMs: 300_000 });
  if (!data) return null;
  return (
    <Link href="/watch" data-testid="watch-count-link">
      {watchCountText(data)}
    </Link>
  );
}
