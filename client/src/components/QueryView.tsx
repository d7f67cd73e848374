import type { ReactNode } from 'react';
import { errorStatus } from '../../../shared/domain/errors';
import { genericFallbackMessage } from '../../../shared/messages';
import { errorText } from '../lib/errors';
import { SUPPORT_EMAIL } from '../shell/error-toast';
import { Button } from './Button';
import { EmptyState } from './Card';
import { Skeleton, type SkeletonShape } from './Skeleton';

/** What QueryView reads of a TanStack (or tRPC) query result. */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isRefetching?: boolean;
  refetch: () => unknown;
}

export interface EmptyContent {
  title: string;
  /** One sentence: what would be here and why it is worth having. */
  description: string;
  /** The primary action that fills the list. */
  action?: ReactNode;
  testId?: string;
}

export interface QueryViewProps<T> {
  query: QueryLike<T>;
  /** The skeleton's shape while loading. */
  skeleton?: SkeletonShape;
  /** Also wait for these before showing anything (their failures do not block). */
  waitFor?: readonly { isPending: boolean }[];
  /** Heading of the error state, e.g. 'Your projects could not be loaded'. */
  errorTitle?: string;
  /** When true for the loaded data, the empty state shows instead of the children. */
  isEmpty?: (data: T) => boolean;
  empty?: EmptyContent;
  children: (data: T) => ReactNode;
}

/** Spec §8: the server's reason when it gave one, else the fallback text with the support address. */
export function loadErrorText(error: unknown): string {
  return errorText(error) ?? genericFallbackMessage(SUPPORT_EMAIL);
}

export function LoadError({ title = 'This could not be loaded', error, onRetry, retrying }: { title?: string; error: unknown; onRetry?: () => void; retrying?: boolean }) {
  return (
    <div className="state state-error" role="alert" data-testid="error-state">
      <h2 className="state-title">{title}</h2>
      <p className="state-text">{loadErrorText(error)}</p>
      {onRetry && (
        <Button onClick={onRetry} busy={retrying ?? false} data-testid="retry-button">
          Try again
        </Button>
      )}
    </div>
  );
}

/**
 * Whether asking again can answer differently: not for something that does not exist (404, 410) or a
 * request that can never be valid (400), so those errors offer no "Try again".
 */
export function canRetry(error: unknown): boolean {
  const status = errorStatus(error);
  return status !== 400 && status !== 404 && status !== 410;
}

/**
 * The three states of every list and detail: loading (a skeleton after the 300 ms grace), error (the
 * spec §8 text and a retry button) and empty (a sentence and the primary action). Children render only
 * with data.
 */
export function QueryView<T>({ query, skeleton = 'card', waitFor = [], errorTitle, isEmpty, empty, children }: QueryViewProps<T>) {
  if (query.isError) {
    return <LoadError title={errorTitle} error={query.error} {...(canRetry(query.error) ? { onRetry: () => void query.refetch() } : {})} retrying={query.isRefetching ?? false} />;
  }
  if (query.isPending || query.data === undefined || waitFor.some((q) => q.isPending)) return <Skeleton shape={skeleton} />;
  if (empty && isEmpty?.(query.data)) {
    return <EmptyState title={empty.title} description={empty.description} action={empty.action} {...(empty.testId ? { testId: empty.testId } : {})} />;
  }
  return <>{children(query.data)}</>;
}
