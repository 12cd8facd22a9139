import { useCallback, useState } from 'react';

export interface DialogTarget<T> {
  target: T | null;
  opened: boolean;
  open: (target: T) => void;
  close: () => void;
}

/**
 * A dialog about one record (delete this filter, unban this address). The record stays set while the
 * dialog closes, so its title does not change during the closing transition.
 */
export function useDialogTarget<T>(): DialogTarget<T> {
  const [state, setState] = useState<{ target: T | null; opened: boolean }>({ target: null, opened: false });
  // Stable functions: a memoized row that opens the dialog keeps its props.
  const open = useCallback((target: T) => setState({ target, opened: true }), []);
  const close = useCallback(() => setState((current) => ({ ...current, opened: false })), []);
  return { target: state.target, opened: state.opened, open, close };
}
