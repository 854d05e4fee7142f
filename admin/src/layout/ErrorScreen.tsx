import { Component, type ErrorInfo, type ReactNode } from 'react';
import { lookup } from '../i18n/tiny';
import en from '../i18n/en';

/**
 * The router fallback (spec 8: "Unexpected Application Error!") with a way back. Plain markup and inline styles:
 * it must render even when the theme, the translations or a lazy chunk failed to load.
 */
export function ErrorScreen({ error }: { error: unknown }) {
  const text = (key: string) => lookup(en as unknown as Record<string, unknown>, key) ?? key;
  const detail =
    error && typeof error === 'object' && 'status' in error && 'statusText' in error
      ? `${(error as { status: number }).status} ${(error as { statusText: string }).statusText}`
      : error instanceof Error
        ? error.message
        : String(error ?? '');
  const dark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  return (
    <main
      role="alert"
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 24,
        fontFamily: 'Inter, "Segoe UI", Roboto, Arial, sans-serif',
        background: dark ? '#0f1420' : '#f4f6fb',
        color: dark ? '#e6eaf3' : '#172033',
      }}
    >
      <div style={{ maxWidth: 520 }}>
        <h1 style={{ fontSize: 26, margin: '0 0 12px' }}>Unexpected Application Error!</h1>
        <p style={{ margin: '0 0 8px' }}>{text('ls.error_page.text')}</p>
        {detail && (
          <pre style={{ whiteSpace: 'pre-wrap', fontSize: 13, opacity: 0.75, margin: '0 0 20px' }} data-testid="route-error-detail">
            {detail}
          </pre>
        )}
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          <a href="/" style={{ background: '#2848c7', color: '#fff', padding: '10px 18px', borderRadius: 8, textDecoration: 'none', fontWeight: 600 }}>
            {text('ls.common.back_to_start')}
          </a>
          <button
            type="button"
            onClick={() => window.location.reload()}
            style={{ background: 'transparent', color: 'inherit', border: '1px solid currentColor', padding: '9px 18px', borderRadius: 8, cursor: 'pointer', font: 'inherit' }}
          >
            {text('ls.common.reload')}
          </button>
        </div>
      </div>
    </main>
  );
}

/** Catches what escapes a page (a failed chunk load, a render error) and shows the ErrorScreen. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: unknown; key?: string }> {
  state: { error: unknown; key?: string } = { error: undefined };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: { resetKey?: string }, state: { error: unknown; key?: string }) {
    // Moving to another address clears the error.
    if (props.resetKey !== state.key) return { error: undefined, key: props.resetKey };
    return null;
  }
  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Unexpected application error', error, info.componentStack);
  }
  render() {
    return this.state.error !== undefined ? <ErrorScreen error={this.state.error} /> : this.props.children;
  }
}
