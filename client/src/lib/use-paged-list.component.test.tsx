import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Router, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useUrlState } from './use-url-state';
import { usePagedList } from './use-paged-list';

/** Three pages chained by tokens, as Ory's Link header hands them out. */
const PAGES: Record<string, { items: string[]; next: string | null }> = {
  '': { items: ['a', 'b'], next: 't2' },
  t2: { items: ['c', 'd'], next: 't3' },
  t3: { items: ['e'], next: null },
};

function PagedList() {
  const { pageToken, firstPage, pager } = usePagedList();
  const [url, setUrl] = useUrlState(['filter'] as const);
  const page = PAGES[pageToken ?? '']!;
  return (
    <>
      <ul>
        {page.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <button type="button" onClick={() => setUrl({ filter: url.filter ? '' : 'on', ...firstPage })}>
        Filter
      </button>
      <output>{useSearch()}</output>
      {pager({ label: 'Letter pages', nextToken: page.next, testId: 'letters' })}
    </>
  );
}

const shown = () => screen.getAllByRole('listitem').map((li) => li.textContent);
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

function renderAt(search = '') {
  const location = memoryLocation({ path: `/letters${search ? `?${search}` : ''}`, record: true });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <PagedList />
    </Router>,
  );
  return location;
}

afterEach(cleanup);

describe('usePagedList', () => {
  it('walks forward and back through the pages, keeping the tokens walked in the URL', async () => {
    const user = userEvent.setup();
    renderAt();
    expect(shown()).toEqual(['a', 'b']);
    expect(button('Previous').disabled).toBe(true);
    await user.click(button('Next'));
    expect(shown()).toEqual(['c', 'd']);
    expect(screen.getByRole('status').textContent).toBe('pages=t2');
    await user.click(button('Next'));
    expect(shown()).toEqual(['e']);
    expect(screen.getByRole('status').textContent).toBe(`pages=${encodeURIComponent('t2,t3')}`);
    expect(button('Next').disabled).toBe(true);
    // Previous goes to the page before, not back to the first.
    await user.click(button('Previous'));
    expect(shown()).toEqual(['c', 'd']);
  });

  it('opens on the page the URL names, as after a reload or a shared link', () => {
    renderAt('pages=t2,t3');
    expect(shown()).toEqual(['e']);
    expect(button('Previous').disabled).toBe(false);
  });

  it('goes back to the first page in the same change as a new filter', async () => {
    const user = userEvent.setup();
    renderAt('pages=t2');
    await user.click(button('Filter'));
    expect(shown()).toEqual(['a', 'b']);
    expect(screen.getByRole('status').textContent).toBe('filter=on');
  });

  it('shows no pager while the list fits one page', () => {
    const location = memoryLocation({ path: '/letters' });
    function OnePage() {
      return usePagedList().pager({ label: 'Letter pages', nextToken: null });
    }
    render(
      <Router hook={location.hook} searchHook={location.searchHook}>
        <OnePage />
      </Router>,
    );
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
