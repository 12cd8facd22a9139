import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

/**
 * The search box, filters and page of a table paged on the server. A filter's value '' filters nothing;
 * a new search or filter starts again from the first page.
 */
export function useServerPaging<F extends Record<string, string>>(pageSize: number, initialFilters: F) {
  const [search, setSearchText] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [filters, setFilters] = useState(initialFilters);
  const [offset, setOffset] = useState(0);
  const setSearch = (value: string) => {
    setSearchText(value);
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
  return { search, setSearch, debounced, filters, bind, filtered, offset, setOffset, pageSize };
}

export type ServerPaging = Pick<
  ReturnType<typeof useServerPaging>,
  'search' | 'setSearch' | 'offset' | 'setOffset' | 'pageSize'
>;
