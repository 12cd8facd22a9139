// A small history router: the console has a handful of flat routes, so no router library is needed.
import { useSyncExternalStore, type MouseEvent } from 'react';
import { confirmLeave } from './unsaved-edits.ts';

const listeners = new Set<() => void>();
/** The path shown, so a Back the operator takes back from can be undone. */
let shownPath = window.location.pathname;
window.addEventListener('popstate', () => {
  if (window.location.pathname !== shownPath && !confirmLeave()) {
    window.history.pushState(null, '', shownPath);
    return;
  }
  shownPath = window.location.pathname;
  listeners.forEach((l) => l());
});

/** Goes to a console path without reloading, unless the operator keeps unsaved edits. */
export function navigate(to: string): void {
  if (to === window.location.pathname) return;
  if (!confirmLeave()) return;
  window.history.pushState(null, '', to);
  shownPath = to;
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

/** The current pathname, re-rendering on navigation. */
export function usePathname(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => window.location.pathname,
  );
}

/** Props for an anchor that navigates in-app but still works with middle-click and "open in new tab". */
export function linkProps(to: string): { href: string; onClick: (event: MouseEvent) => void } {
  return {
    href: to,
    onClick: (event) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return;
      event.preventDefault();
      navigate(to);
    },
  };
}
