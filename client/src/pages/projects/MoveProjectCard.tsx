import { useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { Select } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { QUERY_RULES } from '../../lib/query-client';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

/** Moves the project into another of the caller's workspaces (its plan and members then come from there), after a confirmation. */
export function MoveProjectCard() {
  const project = useProject();
  const projectId = project.id;
  const name = project.current_revision.name;
  const workspaces = trpc.workspaces.list.useQuery(undefined, QUERY_RULES.workspaceList);
  const choices = (workspaces.data?.workspaces ?? []).filter((w) => w.id !== project.workspace_id);
  const [target, setTarget] = useState('');
  const [confirming, setConfirming] = useState(false);
  const move = trpc.workspaces.addProject.useMutation();
  const chosen = choices.find((w) => w.id === target) ?? choices[0];

  return (
    <Card title="Move to another workspace" testId="move-project-card">
      <p className="card-text">The project then takes its plan, members and billing from the workspace you choose.</p>
      {workspaces.isSuccess && choices.length === 0 ? (
        <p className="muted" data-testid="move-project-none">
          You have no other workspace to move it to. Create one on the Workspaces page first.
        </p>
      ) : (
        <div className="form-row">
          <Select
            label="Workspace"
            options={choices.map((w) => ({ value: w.id, label: w.name }))}
            value={chosen?.id ?? ''}
            onChange={(e) => setTarget(e.target.value)}
            disabled={!workspaces.isSuccess}
            data-testid="move-project-workspace"
          />
          <Button onClick={() => setConfirming(true)} disabled={!chosen} data-testid="move-project-button">
            Move project
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming && chosen !== undefined}
        title="Move this project?"
        message={
          <p>
            <strong>{name}</strong> moves into the workspace <strong>{chosen?.name}</strong>, and from then on follows its plan and members.
          </p>
        }
        confirmLabel="Move project"
        variant="primary"
        busy={move.isPending}
        error={move.error ? (errorText(move.error) ?? 'The project could not be moved.') : undefined}
        onConfirm={() =>
          chosen &&
          !move.isPending &&
          move.mutate(
            { workspaceId: chosen.id, projectId },
            {
              onSuccess: () => {
                setConfirming(false);
                toast.success(`${name} is now in ${chosen.name}.`);
              },
            },
          )
        }
        onClose={() => {
          setConfirming(false);
          move.reset();
        }}
        testId="move-project-dialog"
      />
    </Card>
  );
}
