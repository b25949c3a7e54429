import { useState } from 'react';
import { ApiError } from '../api/client.ts';
import { useToken } from '../api/token.ts';

/**
 * A button that performs a write (POST). Disabled with a hint when no token is set; shows the
 * API's error (401 reads "token missing or wrong") next to itself.
 */
export function WriteButton({
  label,
  busyLabel,
  action,
  onDone,
  testid,
  ariaLabel,
}: {
  label: string;
  busyLabel?: string;
  action: () => Promise<unknown>;
  onDone?: () => void;
  testid?: string;
  ariaLabel?: string;
}) {
  const token = useToken();
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const noToken = token === '';
  async function run() {
    setBusy(true);
    setErr(null);
    try {
      await action();
      onDone?.();
    } catch (e) {
      setErr(e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="write-button">
      <button
        type="button"
        onClick={run}
        disabled={noToken || busy}
        data-testid={testid}
        aria-label={ariaLabel}
        title={noToken ? 'Set a token (top right) to enable write actions' : undefined}
      >
        {busy ? (busyLabel ?? 'Working…') : label}
      </button>
      {err && (
        <span className="write-error" role="alert" data-testid="write-error">
          ✖ {err}
        </span>
      )}
    </span>
  );
}

/** Hint shown near write controls when no token is set. */
export function TokenHint() {
  const token = useToken();
  if (token) return null;
  return (
    <p className="hint no-print" data-testid="token-hint">
      ○ Write actions are disabled: paste a token in the <strong>Token</strong> control at the top right.
    </p>
  );
}
