import { Component, type ReactNode } from "react";

interface ErrorBoundaryProps {
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
}

function toError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

/**
 * Last-resort boundary around the whole app: shows the message as text instead of a blank page.
 * React only supports error boundaries as class components. No componentDidCatch: React 19's
 * default onCaughtError already reports the error to console.error.
 */
export default class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(thrown: unknown): ErrorBoundaryState {
    return { error: toError(thrown) };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) {
      return this.props.children;
    }
    return (
      <div className="error-boundary" role="alert" data-testid="app.error">
        <h1 className="error-boundary__title">Something went wrong</h1>
        <p>The studio hit an error and stopped rendering. Reload the page to start again.</p>
        <pre className="error-boundary__message">{error.message}</pre>
      </div>
    );
  }
}
