import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Link, Route, Router, Switch } from 'wouter';
import { cancelNavigation, guardNavigation, usePendingNavigation, useUnsavedChangesGuard } from './navigation-guard';

function Form() {
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesGuard(dirty);
  return (
    <>
      <h1>Form</h1>
      <button type="button" onClick={() => setDirty(true)}>
        Edit
      </button>
      <button type="button" onClick={() => setDirty(false)}>
        Saved
      </button>
      <Link href="/elsewhere">Leave</Link>
    </>
  );
}

function Question() {
  const pending = usePendingNavigation();
  return pending ? <p role="alert">{pending.message}</p> : null;
}

function App() {
  return (
    <Router aroundNav={guardNavigation}>
      <Switch>
        <Route path="/form">
          <Form />
        </Route>
        <Route path="/elsewhere">
          <h1>Elsewhere</h1>
        </Route>
      </Switch>
      <Question />
    </Router>
  );
}

describe('the unsaved-changes guard', () => {
  beforeEach(() => window.history.replaceState(null, '', '/form'));
  afterEach(() => {
    act(() => cancelNavigation());
    cleanup();
  });

  it('holds a link while the form has changes', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    expect(screen.getByRole('alert').textContent).toBe('You have unsaved changes. If you leave this page, they will be lost.');
    expect(screen.getByRole('heading').textContent).toBe('Form');
  });

  it('lets a link through once the form is clean', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Saved' }));
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading').textContent).toBe('Elsewhere');
  });

  it('goes where the user asked when the changes are saved while the question is open', async () => {
    // A click on a link that lands while a save is finishing: once the form is clean there is nothing to
    // lose, so the held navigation happens instead of being dropped.
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    expect(screen.getByRole('alert')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Saved' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading').textContent).toBe('Elsewhere');
    expect(window.location.pathname).toBe('/elsewhere');
  });
});
