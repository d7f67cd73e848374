import { Circle, CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { RouteDef } from '../lib/route-def';

export interface ChecklistStep {
  /** Stable id, for test ids and keys. */
  id: string;
  title: string;
  text: string;
  /** Done, not done, or not known yet (still loading, or it could not be read). */
  done: boolean | undefined;
  /** An app route (linked once its page exists), a page of the project's own (its hosted pages), or something not possible yet, with why. */
  target: { route: RouteDef; href: string } | { external: string } | { pending: string };
  action: string;
}

function StepAction({ step }: { step: ChecklistStep }) {
  const { target } = step;
  if ('pending' in target) return <span className="muted">{target.pending}</span>;
  if ('external' in target) {
    return (
      <a className="link" href={target.external} target="_blank" rel="noreferrer">
        {step.action}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    );
  }
  if (!target.route.available) return <span className="muted">Coming to the Console soon</span>;
  return (
    <Link className="link" href={target.href}>
      {step.action}
    </Link>
  );
}

/** Steps towards a goal, each checked off when it is really done (its state comes from the data, never from a click). */
export function Checklist({ steps, testId }: { steps: readonly ChecklistStep[]; testId?: string }): ReactNode {
  return (
    <ul className="checklist" data-testid={testId}>
      {steps.map((step) => (
        <li key={step.id} data-testid="checklist-item" data-step={step.id} data-done={step.done === undefined ? 'unknown' : String(step.done)}>
          {step.done ? (
            <CircleCheck className="checklist-mark checklist-mark-done" size={18} aria-hidden="true" />
          ) : (
            <Circle className="checklist-mark" size={18} aria-hidden="true" />
          )}
          <div>
            <span className="checklist-title">
              {step.title}
              {step.done && <span className="sr-only"> (done)</span>}
            </span>
            <p>{step.text}</p>
            {!step.done && <StepAction step={step} />}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** "2 of 5 steps done", with a progress bar, for a checklist. */
export function ChecklistProgress({ steps, label }: { steps: readonly ChecklistStep[]; label: string }) {
  const done = steps.filter((s) => s.done).length;
  return (
    <div className="checklist-progress" data-testid="checklist-progress">
      <progress max={steps.length} value={done} aria-label={label} />
      <span>
        {done} of {steps.length} steps done
      </span>
    </div>
  );
}
