import { useEffect, useState } from 'react';
import { api, ApiError } from '../api/client.ts';
import { setToken, useToken } from '../api/token.ts';

type TokenName = { state: 'none' } | { state: 'named'; name: string } | { state: 'rejected' } | { state: 'unknown' };

/**
 * Whom the collector knows the token as (`GET /api/whoami`): acknowledgements and resolutions
 * are recorded under that name. 'unknown' when the collector could not be asked.
 */
function useTokenName(token: string): TokenName {
  const [name, setName] = useState<TokenName>({ state: 'none' });
  useEffect(() => {
    if (!token) {
      setName({ state: 'none' });
      return;
    }
    const ctl = new AbortController();
    api
      .get('/api/whoami', ctl.signal)
      .then((r) => setName(r.name ? { state: 'named', name: r.name } : { state: 'rejected' }))
      .catch((e: unknown) => {
        if (!ctl.signal.aborted)
          setName(e instanceof ApiError && e.status === 401 ? { state: 'rejected' } : { state: 'unknown' });
      });
    return () => ctl.abort();
  }, [token]);
  return name;
}

/** Header control where the user pastes the write token (kept in localStorage). */
export function TokenControl() {
  const token = useToken();
  const who = useTokenName(token);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  return (
    <div className="token-control">
      <button
        type="button"
        aria-expanded={open}
        aria-label={token ? 'Token set; change write token' : 'No token; set write token'}
        onClick={() => setOpen(!open)}
        data-testid="token-button"
      >
        {token ? '● Token set' : '○ Token'}
      </button>
      {who.state === 'named' && (
        <span
          className="token-name small"
          data-testid="token-name"
          data-state="named"
          title="Your actions are recorded under this name"
        >
          as <strong>{who.name}</strong>
        </span>
      )}
      {who.state === 'rejected' && (
        <span className="token-name small tone-bad" data-testid="token-name" data-state="rejected">
          ✖ token not accepted
        </span>
      )}
      {open && (
        <form
          className="token-popover"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim()) setToken(draft);
            setDraft('');
            setOpen(false);
          }}
        >
          <label>
            API token
            <input
              type="password"
              autoComplete="off"
              value={draft}
              placeholder={token ? '(unchanged)' : 'paste token'}
              onChange={(e) => setDraft(e.target.value)}
              data-testid="token-input"
            />
          </label>
          <p className="small muted">
            Acknowledgements and resolutions are recorded under the name the collector gives this token.
          </p>
          <div className="row">
            <button type="submit" data-testid="token-save">
              Save
            </button>
            {token && (
              <button type="button" onClick={() => setToken('')}>
                Forget token
              </button>
            )}
          </div>
        </form>
      )}
    </div>
  );
}
