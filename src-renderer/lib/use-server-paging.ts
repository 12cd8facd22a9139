import { useState } from 'react';

/**
 * The search, filters and page of a table paged on the server. A filter's value '' filters nothing;
 * a new search or filter starts again from the first page. The search box keeps what is being
 * typed and hands the search over once typing has paused for `debounceMs`, so a keystroke
 * re-renders the box, not the table.
 */
export function useServerPaging<F extends Record<string, string>>(
  pageSize: number,
  initialFilters: F,
  debounceMs = 300,
) {
  const [debounced, setDebounced] = useState('');
  const [filters, setFilters] = useState(initialFilters);
  const [offset, setOffset] = useState(0);
  const setSearch = (value: string) => {
    setDebounced(value);
    setOffset(0);
  };
  /** A filter's value and setter, to spread on its picker (like Mantine's getInputProps). */
  const bind = <K extends keyof F>(key: K) => ({
    value: filters[key],
    onChange: (value: F[K]) => {
      setFilters((current) => ({ ...current, [key]: value }));
      setOffset(0);
    },
  });
  const filtered = Boolean(debounced.trim()) || Object.values(filters).some(Boolean);
  return { debounced, setSearch, debounceMs, filters, bind, filtered, offset, setOffset, pageSize };
}

export type ServerPaging = Pick<
  ReturnType<typeof useServerPaging>,
  'setSearch' | 'debounceMs' | 'offset' | 'setOffset' | 'pageSize'
>;
