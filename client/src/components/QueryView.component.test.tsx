import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOADING_GRACE_MS } from '../../../shared/constants';
import { QueryView, type QueryLike } from './QueryView';

const pending: QueryLike<string[]> = { data: undefined, error: null, isPending: true, isError: false, refetch: () => undefined };
const loaded = (data: string[]): QueryLike<string[]> => ({ data, error: null, isPending: false, isError: false, refetch: () => undefined });

function List({ query }: { query: QueryLike<string[]> }) {
  return (
    <QueryView
      query={query}
      errorTitle="Your projects could not be loaded"
      isEmpty={(items) => items.length === 0}
      empty={{ title: 'No projects yet', description: 'Projects hold your users and settings.', action: <button type="button">Create a project</button> }}
    >
      {(items) => (
        <ul>
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </QueryView>
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('QueryView', () => {
  it('shows nothing during the grace period, then the skeleton, then the data', () => {
    vi.useFakeTimers();
    const { rerender } = render(<List query={pending} />);
    expect(screen.queryByRole('status')).toBeNull();
    act(() => vi.advanceTimersByTime(LOADING_GRACE_MS - 1));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toContain('Loading');
    rerender(<List query={loaded(['Acme'])} />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('listitem').textContent).toBe('Acme');
  });

  it('never flashes a skeleton for data that arrives within the grace period', () => {
    vi.useFakeTimers();
    const { rerender } = render(<List query={pending} />);
    act(() => vi.advanceTimersByTime(LOADING_GRACE_MS / 2));
    rerender(<List query={loaded(['Acme'])} />);
    act(() => vi.advanceTimersByTime(LOADING_GRACE_MS));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('listitem').textContent).toBe('Acme');
  });

  it('says what failed with the server’s reason and retries on request', async () => {
    const refetch = vi.fn();
    render(<List query={{ data: undefined, error: { message: 'The workspace is gone.' }, isPending: false, isError: true, refetch }} />);
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('h2')?.textContent).toBe('Your projects could not be loaded');
    expect(alert.textContent).toContain('The workspace is gone.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('shows the empty state with its action instead of an empty list', () => {
    render(<List query={loaded([])} />);
    expect(screen.getByText('No projects yet')).toBeTruthy();
    expect(screen.getByText('Projects hold your users and settings.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create a project' })).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });
});
