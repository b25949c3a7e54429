import { useState } from 'react';
import { setAckBy, setToken, useAckBy, useToken } from '../api/token.ts';

/** Header control where the user pastes the write token (kept in localStorage). */
export function TokenControl() {
  const token = useToken();
  const ackBy = useAckBy();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const [name, setName] = useState(ackBy);
  return (
    <div className="token-control">
      <button
        type="button"
        aria-expanded={open}
        aria-label={token ? 'Token set; change write token' : 'No token; set write token'}
        onClick={() => {
          setOpen(!open);
          setName(ackBy);
        }}
        data-testid="token-button"
      >
        {token ? '● Token set' : '○ Token'}
      </button>
      {open && (
        <form
          className="token-popover"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim()) setToken(draft);
            setAckBy(name);
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
          <label>
            Your name (for acknowledgements)
            <input value={name} onChange={(e) => setName(e.target.value)} data-testid="ackby-input" />
          </label>
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
