import type { ReactElement } from 'react';
import { Pager, type PagerProps } from '../components/Pager';
import { useUrlState } from './use-url-state';

export interface PagedList {
  /** The token of the page shown; undefined on the first page. */
  pageToken: string | undefined;
  /** The URL change that goes back to the first page, to merge into a filter's own change (one navigation, not two). */
  firstPage: Record<string, string>;
  /** Previous and Next for the answer's next-page token; nothing while the list fits one page. */
  pager: (props: Omit<PagerProps, 'hasPrevious' | 'onPrevious' | 'onNext'>) => ReactElement | null;
}

/**
 * A list paged by token (Ory's Link header), its place kept in the URL (`?pages=t2,t3`: the tokens of the pages
 * walked through), so a reload, a shared link or Back from a detail page lands on the same page, and Previous
 * never starts over from the first.
 */
export function usePagedList(param = 'pages'): PagedList {
  const [url, setUrl] = useUrlState([param]);
  const tokens = url[param] ? url[param].split(',') : [];
  return {
    pageToken: tokens.at(-1),
    firstPage: { [param]: '' },
    pager: (props) => (
      <Pager
        {...props}
        hasPrevious={tokens.length > 0}
        onPrevious={() => setUrl({ [param]: tokens.slice(0, -1).join(',') })}
        onNext={(token) => setUrl({ [param]: [...tokens, token].join(',') })}
      />
    ),
  };
}
