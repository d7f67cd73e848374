import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { MESSAGES } from '../../../shared/messages';
import { QUERY_RULES } from '../lib/query-client';
import type { ProjectDetail } from '../lib/types';
import { trpc } from '../trpc';

const ProjectCtx = createContext<ProjectDetail | null>(null);
/** True while a project route's project is still loading (or failed and is leaving). */
const ProjectLoadingCtx = createContext(false);

export const PROJECT_ACCESS_TOAST_ID = 'project-access-failure';

/**
 * Spec §2/§4 project context: loading, then loaded (the project is provided) or error (access-failure
 * toast and redirect to the project list). Project loading is not retried. The frame stays on screen
 * while loading; the page area shows 'Loading Project' (see useProjectLoading).
 */
export function ProjectContext({ projectId, children }: { projectId: string | undefined; children: ReactNode }) {
  // Rendered on every route (idle without a project), so moving in and out of a project keeps the frame mounted.
  const project = trpc.projects.get.useQuery({ projectId: projectId ?? '' }, { ...QUERY_RULES.project, enabled: Boolean(projectId) });
  const [, navigate] = useLocation();
  const failed = Boolean(projectId) && project.isError;

  useEffect(() => {
    if (!failed) return;
    toast.error(MESSAGES.projectAccessFailure, { id: PROJECT_ACCESS_TOAST_ID });
    navigate('/projects', { replace: true });
  }, [failed, navigate]);

  const loaded = projectId && project.isSuccess ? project.data : null;
  useActiveProjectSync(loaded?.id);
  return (
    <ProjectLoadingCtx.Provider value={Boolean(projectId) && !loaded}>
      <ProjectCtx.Provider value={loaded}>{children}</ProjectCtx.Provider>
    </ProjectLoadingCtx.Provider>
  );
}

/**
 * The project open on screen is the active one, however it was reached (the switcher, a link, the palette,
 * a typed address), so the switcher on pages outside a project never names one the user has since left.
 *
 * The project is recorded as soon as it has loaded, without first reading which project the server holds:
 * waiting on that read let a user who left the project quickly (before the read answered) leave it unrecorded.
 * Only a cached answer that already names this project spares the write.
 */
function useActiveProjectSync(projectId: string | undefined): void {
  const utils = trpc.useUtils();
  // The answer is what the server now holds: a read of the active project still in flight (started before
  // the change, or by a page mounting meanwhile) is cancelled first, so it cannot land after it and put the
  // project just left back into the cache.
  const setActive = trpc.projects.setActive.useMutation({
    onSuccess: async (answer) => {
      await utils.projects.getActive.cancel();
      utils.projects.getActive.setData(undefined, answer);
    },
  });
  const { mutate } = setActive;
  // The project open now, once recorded (or found recorded): one write per project opened, none on re-renders.
  const recorded = useRef<string | null>(null);
  useEffect(() => {
    if (!projectId) {
      recorded.current = null;
      return;
    }
    if (recorded.current === projectId) return;
    recorded.current = projectId;
    if (utils.projects.getActive.getData()?.projectId === projectId) return;
    mutate({ projectId });
  }, [projectId, mutate, utils]);
}

/** The loaded project of the surrounding ProjectContext. */
export function useProject(): ProjectDetail {
  const project = useContext(ProjectCtx);
  if (!project) throw new Error('useProject must be used inside a loaded ProjectContext');
  return project;
}

export function useOptionalProject(): ProjectDetail | null {
  return useContext(ProjectCtx);
}

export function useProjectLoading(): boolean {
  return useContext(ProjectLoadingCtx);
}
