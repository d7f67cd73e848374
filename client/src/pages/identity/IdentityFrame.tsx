import type { ReactNode } from 'react';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/Card';
import { GraceSpinner } from '../../components/Spinner';
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
  if (state.status === 'loading') return <GraceSpinner />;
  if (state.status === 'error') {
    return (
      <>
        <ErrorState title="This step could not be loaded" message={state.message} />
        <Button onClick={restart}>Start again</Button>
      </>
    );
  }
  return (
    <>
      <UiMessages messages={state.flow.ui.messages} />
      <FlowForm key={state.version} flow={state.flow} groups={groups} submitting={submitting} onSubmit={submit} />
    </>
  );
}
