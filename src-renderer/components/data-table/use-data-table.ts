import { useCallback, useState } from 'react';
import type { DataTableSearch, DataTableSelection } from './types.ts';

/** The rows whose search text holds the term (case-insensitive); every row without a term or a search. */
export function matchingRows<T>(rows: readonly T[], search: DataTableSearch<T> | undefined, term: string): T[] {
  const needle = term.trim().toLowerCase();
  if (!search || !needle) return [...rows];
  return rows.filter((row) => search.text(row).toLowerCase().includes(needle));
}

/** A copy of the selection with the keys ticked (on) or unticked. */
export function withKeys(selected: ReadonlySet<string>, keys: readonly string[], on: boolean): Set<string> {
  const next = new Set(selected);
  for (const key of keys) {
    if (on) next.add(key);
    else next.delete(key);
  }
  return next;
}

/** How many of the shown rows are ticked: the state of the "Select all … shown" box. */
export function shownSelection(selected: ReadonlySet<string>, shownKeys: readonly string[]): 'none' | 'some' | 'all' {
  const ticked = shownKeys.filter((key) => selected.has(key)).length;
  if (ticked === 0) return 'none';
  return ticked === shownKeys.length ? 'all' : 'some';
}

export interface DataTableState<T> {
  /** The rows the search leaves, in order. */
  shown: T[];
  /** The search box's text, and whether it searches anything. */
  term: string;
  setTerm: (term: string) => void;
  searching: boolean;
  /** Ticks or unticks one row; stable while the selection is, so memoized rows keep their props. */
  toggleRow: (key: string, on: boolean) => void;
  /** Ticks or unticks every shown row. */
  toggleShown: (on: boolean) => void;
  shownSelected: 'none' | 'some' | 'all';
}

/** The headless part of DataTable: the search, the rows it leaves and the selection over them. */
export function useDataTable<T>({
  rows,
  rowKey,
  search,
  selection,
}: {
  rows: readonly T[];
  rowKey: (row: T) => string;
  search?: DataTableSearch<T>;
  selection?: DataTableSelection;
}): DataTableState<T> {
  const [term, setTerm] = useState(search?.initial ?? '');
  const shown = matchingRows(rows, search, term);
  const shownKeys = shown.map(rowKey);
  const toggleRow = useCallback(
    (key: string, on: boolean) => selection?.onChange(withKeys(selection.selected, [key], on)),
    [selection],
  );
  return {
    shown,
    term,
    setTerm,
    searching: Boolean(search) && term.trim() !== '',
    toggleRow,
    toggleShown: (on) => selection?.onChange(withKeys(selection.selected, shownKeys, on)),
    shownSelected: selection ? shownSelection(selection.selected, shownKeys) : 'none',
  };
}
