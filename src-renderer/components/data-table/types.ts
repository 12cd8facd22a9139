import type { ReactNode } from 'react';
import type { RowAction } from '../RowActionsMenu.tsx';

export interface DataTableColumn<T> {
  /** The column header, and the label of the value in a card. */
  header: string;
  render: (row: T) => ReactNode;
  /** Addresses, keys and counters read better in monospace. */
  mono?: boolean;
  /** In a card: `title` heads the card (one column), `wide` spans the card's width, `hidden` is left out. */
  card?: 'title' | 'wide' | 'hidden';
}

export interface DataTableSearch<T> {
  /** The search box's accessible name, e.g. "Filter by IP address". */
  label: string;
  placeholder?: string;
  /** The text a row is searched in (case-insensitive). */
  text: (row: T) => string;
  /** The search's text when the table first shows (a link to one record). */
  initial?: string;
}

/** Rows the operator ticks for a bulk action, by row key. */
export interface DataTableSelection {
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}

/** How each row is named, keyed, found by tests and acted on. */
export interface DataTableRowOptions<T> {
  /** A record with an id is keyed by it unless told otherwise. */
  key?: (row: T) => string;
  /** Names the row for screen readers: "Actions for <row>", "Unban <row>" (defaults to its key). */
  label?: (row: T) => string;
  testId?: string;
  actions?: (row: T) => RowAction[];
  /** Every row action as its own button, never a "…" menu (a few actions used on most rows). */
  inlineActions?: boolean;
}

/** How the list is framed: its card, the controls above and below it, its scrolling width. */
export interface DataTableFrame {
  /** Draw the list in its own bordered card (default), or inside a card the caller already has. */
  card?: boolean;
  /** Below this width the table scrolls sideways; the actions column stays in view. */
  minWidth?: number;
  /** Controls beside the search box (a category picker, a bulk action). */
  toolbar?: ReactNode;
  footer?: ReactNode;
}

/** Row options with the key and label settled (DataTable fills the defaults). */
export type ResolvedRowOptions<T> = DataTableRowOptions<T> & { key: (row: T) => string; label: (row: T) => string };
