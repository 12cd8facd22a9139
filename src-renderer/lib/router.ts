// A small history router: the console has a handful of flat routes, so no router library is needed.
import { useSyncExternalStore, type MouseEvent } from 'react';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

/** Goes to a console path without reloading. */
export function navigate(to: string): void {
  if (to === window.location.pathname) return;
  window.history.pushState(null, '', to);
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
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(to);
    },
  };
}
