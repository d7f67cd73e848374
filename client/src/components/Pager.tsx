import { Button } from './Button';

export interface PagerProps {
  /** What is paged, for screen readers: "Identity pages". */
  label: string;
  hasPrevious: boolean;
  /** The next page's token from the answer's Link header; null on the last page. */
  nextToken: string | null | undefined;
  onPrevious: () => void;
  onNext: (token: string) => void;
  /** The next page is loading while the current one stays on screen. */
  busy?: boolean;
  /** Button texts; "Previous" and "Next" unless a list reads better otherwise ("Newer", "Older"). */
  previousText?: string;
  nextText?: string;
  /** Prefix of the buttons' test ids: `${testId}-previous`, `${testId}-next`. */
  testId?: string;
}

/**
 * Previous and next for a list paged by token (Ory's Link header): the page before is the token kept by the
 * caller, so going back never refetches from the start. Nothing is shown while the list fits one page.
 */
export function Pager({ label, hasPrevious, nextToken, onPrevious, onNext, busy, previousText = 'Previous', nextText = 'Next', testId }: PagerProps) {
  if (!hasPrevious && !nextToken) return null;
  return (
    <nav className="pager" aria-label={label}>
      <Button disabled={!hasPrevious} onClick={onPrevious} data-testid={testId && `${testId}-previous`}>
        {previousText}
      </Button>
      <Button disabled={!nextToken} busy={busy} onClick={() => nextToken && onNext(nextToken)} data-testid={testId && `${testId}-next`}>
        {nextText}
      </Button>
    </nav>
  );
}
