import { Search } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { RouteDef } from '../lib/route-def';
import type { ScopeParams } from './nav-model';

const loadPalette = () => import('./CommandPalette');
const CommandPalette = lazy(loadPalette);

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Opens the command palette: a visible button in the top bar, or ⌘K / Ctrl+K anywhere. */
export function PaletteButton({ route, params }: { route: RouteDef; params: ScopeParams }) {
  const [open, setOpen] = useState(false);
  // The palette's code loads on first use (or on hover/focus of the button), not with the frame.
  const [wanted, setWanted] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const remember = () => {
    opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        if (!document.querySelector('[data-testid="palette"]')) remember();
        setWanted(true);
        setOpen((o) => !o);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const preload = () => void loadPalette();
  return (
    <>
      <button
        type="button"
        className="topbar-button palette-button"
        aria-haspopup="dialog"
        aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={(event) => {
          opener.current = event.currentTarget;
          setWanted(true);
          setOpen(true);
        }}
        data-testid="palette-button"
      >
        <Search aria-hidden="true" size={16} />
        <span className="palette-button-text">Search…</span>
        <kbd className="palette-button-kbd" aria-hidden="true">
          {isMac ? '⌘K' : 'Ctrl K'}
        </kbd>
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <CommandPalette open={open} onOpenChange={setOpen} route={route} params={params} returnFocus={() => opener.current?.focus()} />
        </Suspense>
      )}
    </>
  );
}
