import { useState, type FormEvent } from 'react';
import type { ExplainNode, RelationshipView } from '../../../../shared/schemas/relationships';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { subjectOfText, subjectText, tupleText } from './relationship-text';

const RESULT_TEXT: Record<ExplainNode['result'], string> = { member: 'holds', not_member: 'does not hold', unknown: 'undecided (limit reached)' };

/** What one step of the explanation says, in words. */
function stepText(node: ExplainNode): string {
  const at = `${node.namespace}:${node.object}`;
  switch (node.kind) {
    case 'check':
      return `Has the subject “${node.relation}” on ${at}?`;
    case 'direct':
      return `A relationship ${at}#${node.relation} names the subject directly`;
    case 'rule':
      return `Rule ${node.rule ?? ''}`;
    case 'and':
      return `All of: ${node.rule ?? ''}`;
    case 'or':
      return `Any of: ${node.rule ?? ''}`;
    case 'not':
      return `Not: ${node.rule ?? ''}`;
    case 'computed':
      return `Through “${node.relation}” on ${at} (${node.rule ?? ''})`;
    case 'traverse':
      return node.rule ? `Follow ${node.rule}` : `Through ${at}#${node.relation}`;
    case 'subject-set':
      return `Members of a subject set named on ${at}#${node.relation}`;
    case 'limit':
      return `Stopped here: ${node.limitation === 'max_width_exceeded' ? 'too many subject sets at one step' : 'the depth limit is reached'}`;
  }
}

function Step({ node, onTuple }: { node: ExplainNode; onTuple: (tuple: RelationshipView) => void }) {
  return (
    <li data-testid="debugger-step" data-result={node.result}>
      <span className={`badge badge-${node.result === 'member' ? 'prod' : node.result === 'unknown' ? 'stage' : 'dev'}`}>{RESULT_TEXT[node.result]}</span>{' '}
      {stepText(node)}
      {node.tuple && (
        <>
          {' — '}
          <Button variant="ghost" onClick={() => onTuple(node.tuple!)} data-testid="debugger-tuple">
            {tupleText(node.tuple)}
          </Button>
        </>
      )}
      {node.children.length > 0 && (
        <ul>
          {node.children.map((child, i) => (
            <Step key={i} node={child} onTuple={onTuple} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The check debugger: subject, relation, object → allowed or denied, as the permission service answers, with
 * every step the project's rules take to that answer, the rule each applies and the relationship each stands
 * on (a link shows it in the table).
 */
export function CheckDebugger({ projectId, onTuple }: { projectId: string; onTuple: (tuple: RelationshipView) => void }) {
  const [form, setForm] = useState({ namespace: '', object: '', relation: '', subject: '' });
  const [asked, setAsked] = useState<typeof form | null>(null);
  const subject = asked ? subjectOfText(asked.subject) : null;
  const check = trpc.permissions.check.useQuery(
    { projectId, namespace: asked?.namespace ?? '', object: asked?.object ?? '', relation: asked?.relation ?? '', subject: subject ?? { id: '' } },
    { enabled: asked !== null && subject !== null, retry: false },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsked({ ...form });
  };
  const field = (key: keyof typeof form, label: string, hint?: string) => (
    <TextField label={label} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} required data-testid={`debugger-${key}`} {...(hint ? { hint } : {})} />
  );
  return (
    <Card title="Check debugger" testId="check-debugger">
      <form onSubmit={submit} className="form-grid">
        {field('subject', 'Subject', 'A subject id, or a subject set as namespace:object#relation')}
        {field('relation', 'Relation or permission')}
        {field('namespace', 'Namespace')}
        {field('object', 'Object')}
        <div className="form-actions form-actions-start">
          <Button type="submit" variant="primary" busy={check.isFetching} data-testid="debugger-submit">
            Check
          </Button>
        </div>
      </form>
      {asked && subject === null && <p className="field-error">Name the subject: an id, or namespace:object#relation.</p>}
      {check.error && (
        <p className="field-error" role="alert">
          {errorText(check.error) ?? 'The check could not be made.'}
        </p>
      )}
      {check.data && asked && (
        <div data-testid="debugger-answer" aria-live="polite">
          <p>
            <strong data-testid="debugger-verdict">{check.data.allowed ? 'Allowed' : 'Denied'}</strong>: {subjectText(subject!)} {check.data.allowed ? 'has' : 'does not have'} “
            {asked.relation}” on {asked.namespace}:{asked.object}.
          </p>
          {check.data.explanationDisagrees && (
            <p className="field-error">The steps below reach another answer: the rules or relationships changed while they were read. Check again.</p>
          )}
          <ul className="tree" data-testid="debugger-tree">
            <Step node={check.data.explanation} onTuple={onTuple} />
          </ul>
        </div>
      )}
    </Card>
  );
}
