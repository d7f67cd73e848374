import { createContext, useContext, useEffect, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { MESSAGES } from '../../../shared/messages';
import { LoadingProjectScreen } from '../components/Spinner';
import { QUERY_RULES } from '../lib/query-client';
import type { ProjectDetail } from '../lib/types';
import { trpc } from '../trpc';

const ProjectCtx = createContext<ProjectDetail | null>(null);

export const PROJECT_ACCESS_TOAST_ID = 'project-access-failure';

/**
 * Spec §2/§4 project context: loading ('Loading Project'), then loaded (children rendered) or
 * error (access-failure toast and redirect to the project list). Project loading is not retried.
 */
export function ProjectContext({ projectId, children }: { projectId: string; children: ReactNode }) {
  const project = trpc.projects.get.useQuery({ projectId }, QUERY_RULES.project);
  const [, navigate] = useLocation();

  useEffect(() => {
    if (!project.isError) return;
    toast.error(MESSAGES.projectAccessFailure, { id: PROJECT_ACCESS_TOAST_ID });
    navigate('/projects', { replace: true });
  }, [project.isError, navigate]);

  if (project.isPending || project.isError) return <LoadingProjectScreen />;
  return <ProjectCtx.Provider value={project.data}>{children}</ProjectCtx.Provider>;
}

/** The loaded project of the surrounding ProjectContext. */
export function useProject(): ProjectDetail {
  const project = useContext(ProjectCtx);
  if (!project) throw new Error('useProject must be used inside ProjectContext');
  return project;
}

export function useOptionalProject(): ProjectDetail | null {
  return useContext(ProjectCtx);
}
