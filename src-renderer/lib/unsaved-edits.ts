import { useEffect, useId } from 'react';

/** Forms with edits not yet saved, by a per-form id. */
const dirtyForms = new Set<string>();

export const LEAVE_QUESTION = 'You have changes that are not saved. Leave this page and lose them?';

// A reload or closing the tab passes no router: the browser asks its own question instead.
if (typeof window !== 'undefined')
  window.addEventListener('beforeunload', (event) => {
    if (dirtyForms.size === 0) return;
    event.preventDefault();
    // Older browsers need a returnValue to ask.
    event.returnValue = '';
  });

/** Whether navigation may go on: asks once when some form has unsaved edits. */
export function confirmLeave(): boolean {
  if (dirtyForms.size === 0) return true;
  if (!window.confirm(LEAVE_QUESTION)) return false;
  dirtyForms.clear();
  return true;
}

/** Registers a form's unsaved state with the one guard every navigation passes (lib/router.ts). */
export function useUnsavedEdits(dirty: boolean): void {
  const id = useId();
  useEffect(() => {
    if (dirty) dirtyForms.add(id);
    else dirtyForms.delete(id);
    return () => {
      dirtyForms.delete(id);
    };
  }, [id, dirty]);
}
