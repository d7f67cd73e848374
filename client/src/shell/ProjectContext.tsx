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
 */
function useActiveProjectSync(projectId: string | undefined): void {
  const utils = trpc.useUtils();
  const active = trpc.projects.getActive.useQuery(undefined, { ...QUERY_RULES.activeProject, enabled: Boolean(projectId) });
  // The answer is what the server now holds: a read of the active project still in flight (started before
  // the change, or by a page mounting meanwhile) is cancelled first, so it cannot land after it and put the
  // project just left back into the cache.
  const setActive = trpc.projects.setActive.useMutation({
    onSuccess: async (answer) => {
      await utils.projects.getActive.cancel();
      utils.projects.getActive.setData(undefined, answer);
    },
  });
  const known = active.isSuccess ? active.data.projectId : active.isError ? null : undefined;
  const { mutate } = setActive;
  // Once per project opened: a failure is not retried in a loop.
  const tried = useRef<string | null>(null);
  useEffect(() => {
    if (!projectId || known === undefined || known === projectId || tried.current === projectId) return;
    tried.current = projectId;
    mutate({ projectId });
  }, [projectId, known, mutate]);
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
