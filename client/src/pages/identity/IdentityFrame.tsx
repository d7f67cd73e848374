import type { ReactNode } from 'react';
import { Button } from '../../components/Button';
import { Skeleton } from '../../components/Skeleton';
import { UiMessages } from './FlowNodes';
import { FlowForm } from './FlowForm';
import type { FlowState } from './use-flow';

export function IdentityCard({ title, children, footer, testId }: { title: string; children: ReactNode; footer?: ReactNode; testId: string }) {
  return (
    <div className="identity-page">
      <section className="identity-card" data-testid={testId}>
        <h1 className="identity-title">{title}</h1>
        {children}
        {footer && <div className="identity-footer">{footer}</div>}
      </section>
    </div>
  );
}

export interface FlowViewProps {
  state: FlowState;
  submitting: boolean;
  submit: (body: Record<string, unknown>) => void;
  restart: () => void;
  groups?: readonly string[];
}

/** Loading, error or the flow's messages and form. */
export function FlowView({ state, submitting, submit, restart, groups }: FlowViewProps) {
  if (state.status === 'loading') return <Skeleton shape="form" />;
  if (state.status === 'error') {
    return (
      <div className="state state-error" role="alert" data-testid="error-state">
        <h2 className="state-title">This step could not be loaded</h2>
        <p className="state-text">{state.message}</p>
        <Button onClick={restart} data-testid="retry-button">
          Start again
        </Button>
      </div>
    );
  }
  return (
    <>
      <UiMessages messages={state.flow.ui.messages} />
      <FlowForm key={state.version} flow={state.flow} groups={groups} submitting={submitting} onSubmit={submit} />
    </>
  );
}
