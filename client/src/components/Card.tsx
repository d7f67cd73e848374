import type { ReactNode } from 'react';
import { Truncate } from './Truncate';

export function Card({ title, actions, children, testId }: { title?: string; actions?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="card" data-testid={testId}>
      {(title || actions) && (
        <header className="card-header">
          {title && (
            <h2 className="card-title">
              <Truncate text={title} />
            </h2>
          )}
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      <div className="card-body">{children}</div>
    </section>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div className="page-heading">
        <h1 className="page-title" data-testid="page-title">
          <Truncate text={title} lines={2} />
        </h1>
        {description && <p className="page-description">{description}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}

export function EmptyState({ title, description, action, testId = 'empty-state' }: { title: string; description?: string; action?: ReactNode; testId?: string }) {
  return (
    <div className="state state-empty" data-testid={testId}>
      <h2 className="state-title">{title}</h2>
      {description && <p className="state-text">{description}</p>}
      {action && <div className="state-action">{action}</div>}
    </div>
  );
}

export function ErrorState({ title = 'Something went wrong', message, onRetry }: { title?: string; message?: string; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert" data-testid="error-state">
      <h2 className="state-title">{title}</h2>
      {message && <p className="state-text">{message}</p>}
      {onRetry && (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
