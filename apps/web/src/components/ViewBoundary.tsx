import { Component, type ErrorInfo, type ReactNode } from 'react';

/** A view's failure as shown and as kept for a bug report. */
export interface ViewFailure {
  view: string;
  url: string;
  message: string;
  stack: string;
  componentStack: string;
  at: string;
}

declare global {
  interface Window {
    /** Every view failure of this page load, newest last (read by the e2e specs). */
    __ibwatchViewErrors?: ViewFailure[];
  }
}

/** The text a user pastes into an issue: what failed, where, and the stacks. */
export function failureReport(f: ViewFailure): string {
  return [
    `ibwatch view "${f.view}" failed at ${f.at}`,
    `URL: ${f.url}`,
    `Error: ${f.message}`,
    '',
    f.stack,
    '',
    'Component stack:',
    f.componentStack.trim(),
  ].join('\n');
}

interface Props {
  /** The view's name, for the message and the report. */
  view: string;
  children: ReactNode;
}

/**
 * One per view: a component that throws while rendering takes down its view only, never the
 * header and navigation (a SHARP Aggregation Node's unknown tier once blanked the whole app).
 * The failure is shown where the view was, logged to the console, kept in
 * `window.__ibwatchViewErrors`, and offered as a report to copy. Remount it (React `key`) to
 * leave the failed state, e.g. on navigation.
 */
export class ViewBoundary extends Component<Props, { failure: ViewFailure | null; copied: boolean }> {
  override state = { failure: null as ViewFailure | null, copied: false };

  /** Renders the failure at once; componentDidCatch adds the component stack and reports it. */
  static getDerivedStateFromError(error: unknown): { failure: ViewFailure } {
    const e = error instanceof Error ? error : new Error(String(error));
    const failure: ViewFailure = {
      view: '',
      url: window.location.pathname + window.location.search,
      message: e.message,
      stack: e.stack ?? '',
      componentStack: '',
      at: new Date().toISOString(),
    };
    return { failure };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const failure: ViewFailure = {
      ...ViewBoundary.getDerivedStateFromError(error).failure,
      view: this.props.view,
      componentStack: info.componentStack ?? '',
    };
    (window.__ibwatchViewErrors ??= []).push(failure);
    console.error(`ibwatch: the ${failure.view} view failed`, error, info.componentStack);
    this.setState({ failure, copied: false });
  }

  private copy = (): void => {
    const f = this.state.failure;
    if (!f) return;
    navigator.clipboard?.writeText(failureReport(f)).then(
      () => this.setState({ copied: true }),
      () => undefined,
    );
  };

  override render(): ReactNode {
    const f = this.state.failure;
    if (!f) return this.props.children;
    return (
      <section className="state state-error view-error" data-testid="view-error" role="alert">
        <h1>✖ The {f.view || this.props.view} view failed</h1>
        <p>
          <span className="error-message">{f.message}</span>
        </p>
        <p>
          Nothing else is affected: the other views in the menu work, and the collector keeps scanning. Please report
          this with the text below.
        </p>
        <p className="row">
          <button type="button" onClick={() => this.setState({ failure: null })} data-testid="view-error-retry">
            Try again
          </button>
          <button type="button" onClick={this.copy} data-testid="view-error-copy">
            {this.state.copied ? '✓ Copied' : 'Copy report'}
          </button>
        </p>
        <details>
          <summary>Report</summary>
          <pre className="small" data-testid="view-error-report">
            {failureReport(f)}
          </pre>
        </details>
      </section>
    );
  }
}
