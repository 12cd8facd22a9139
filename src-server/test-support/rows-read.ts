import type Database from 'better-sqlite3';
import type { Db } from '../storage/database.ts';

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Runs `run` and counts the rows SQLite handed to JavaScript on the connection `db` meanwhile
 * (`get`, `all`, `iterate`): how much of a table a function reads, as a count rather than a time.
 */
export function countRowsRead<T>(db: Db, run: () => T): { result: T; rows: number } {
  let rows = 0;
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, Method>;
  const originals = { get: proto.get!, all: proto.all!, iterate: proto.iterate! };
  const ours = (self: unknown) => (self as Database.Statement).database === db;
  proto.get = function (this: unknown, ...args: unknown[]) {
    const row = originals.get.apply(this, args);
    if (ours(this) && row !== undefined) rows++;
    return row;
  };
  proto.all = function (this: unknown, ...args: unknown[]) {
    const all = originals.all.apply(this, args) as unknown[];
    if (ours(this)) rows += all.length;
    return all;
  };
  proto.iterate = function* (this: unknown, ...args: unknown[]) {
    for (const row of originals.iterate.apply(this, args) as Iterable<unknown>) {
      if (ours(this)) rows++;
      yield row;
    }
  };
  try {
    return { result: run(), rows };
  } finally {
    Object.assign(proto, originals);
  }
}
