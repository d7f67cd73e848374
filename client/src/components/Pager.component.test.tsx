import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Pager } from './Pager';

/** Three pages chained by tokens, as Ory's Link header hands them out; the caller keeps the tokens behind it. */
const PAGES: Record<string, { items: string[]; next: string | null }> = {
  '': { items: ['a', 'b'], next: 't2' },
  t2: { items: ['c', 'd'], next: 't3' },
  t3: { items: ['e'], next: null },
};

function PagedList() {
  const [trail, setTrail] = useState<string[]>(['']);
  const page = PAGES[trail[trail.length - 1]!]!;
  return (
    <>
      <ul>
        {page.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <Pager
        label="Identity pages"
        hasPrevious={trail.length > 1}
        nextToken={page.next}
        onPrevious={() => setTrail((t) => t.slice(0, -1))}
        onNext={(token) => setTrail((t) => [...t, token])}
      />
    </>
  );
}

const shown = () => screen.getAllByRole('listitem').map((li) => li.textContent);
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

afterEach(cleanup);

describe('Pager', () => {
  it('goes forward to the last page and back to the first', async () => {
    const user = userEvent.setup();
    render(<PagedList />);
    expect(screen.getByRole('navigation', { name: 'Identity pages' })).toBeTruthy();
    expect(shown()).toEqual(['a', 'b']);
    expect(button('Previous').disabled).toBe(true);
    await user.click(button('Next'));
    expect(shown()).toEqual(['c', 'd']);
    expect(button('Previous').disabled).toBe(false);
    await user.click(button('Next'));
    expect(shown()).toEqual(['e']);
    expect(button('Next').disabled).toBe(true);
    await user.click(button('Previous'));
    expect(shown()).toEqual(['c', 'd']);
    await user.click(button('Previous'));
    expect(shown()).toEqual(['a', 'b']);
  });

  it('shows nothing while the list fits one page', () => {
    render(<Pager label="Identity pages" hasPrevious={false} nextToken={null} onPrevious={() => undefined} onNext={() => undefined} />);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
