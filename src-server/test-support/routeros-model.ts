import assert from 'node:assert/strict';
import { unescapeRouterOs } from './feed-parsers.ts';

/**
 * A model of a RouterOS router's firewall address lists, driven by the exact lines the MikroTik
 * feed writes (full, swap-loading scripts and deltas). Written from RouterOS's rules, not from the
 * server's encoder: `add` fails on an address the list already holds, `find` selects by list and
 * address, an entry with a timeout disappears when it runs out, `:global` values survive between
 * scripts. Any line that is not one of the forms below fails the test.
 */
type Menu = 'ip' | 'ipv6';
interface Entry {
  comment: string;
  /** When the router drops it (ms). */
  endsAt: number;
}

const STR = '"((?:[^"\\\\]|\\\\.)*)"';
const MENU = '/(ip|ipv6)/firewall/address-list';
const LIST = '([A-Za-z0-9_.-]{1,70})';
const NAME = '([A-Za-z0-9]+)';
const TIMEOUT = '(\\d+[sh])';
const FIND_LIST = `\\[ find where list="${LIST}" \\]`;
const FIND_ONE = `\\[ find where list="${LIST}" and (?:address=${STR}|\\(address=${STR} or address=${STR}\\)) \\]`;
const FIELDS = `comment=${STR} timeout=${TIMEOUT}`;

const FORMS = {
  empty: /^$/,
  removeList: new RegExp(`^${MENU}/remove ${FIND_LIST};$`),
  removeOne: new RegExp(`^${MENU}/remove ${FIND_ONE};$`),
  global: new RegExp(`^:global ${NAME};$`),
  defineStart: new RegExp(`^:set ${NAME} do=\\{$`),
  defineBody: new RegExp(
    `^    :do \\{ ${MENU}/add list=${LIST} address=\\$1 comment="\\$2" timeout=\\$3; \\} on-error=\\{ \\}$`,
  ),
  defineEnd: /^\}$/,
  call: new RegExp(`^\\$${NAME} ${STR} ${STR} "${TIMEOUT}"$`),
  swap: new RegExp(`^${MENU}/remove ${FIND_LIST}; ${MENU}/set ${FIND_LIST} list=${LIST};$`),
  unset: new RegExp(`^:set ${NAME};$`),
  setGlobal: new RegExp(`^:global ${NAME}; :set ${NAME} ${STR};$`),
  upsert: new RegExp(
    `^:do \\{ ${MENU}/add list=${LIST} address=${STR} ${FIELDS}; \\} on-error=\\{ ${MENU}/set ${FIND_ONE} ${FIELDS}; \\}$`,
  ),
};

const seconds = (timeout: string) => Number(timeout.slice(0, -1)) * (timeout.endsWith('h') ? 3600 : 1);

export class RouterOsModel {
  private readonly lists = new Map<string, Map<string, Entry>>();
  readonly globals = new Map<string, string>();
  /** How many commands of each form the last script ran (tests check what kind of answer it was). */
  ran: Record<string, number> = {};

  private table(menu: Menu, list: string): Map<string, Entry> {
    const key = `${menu} ${list}`;
    let table = this.lists.get(key);
    if (!table) this.lists.set(key, (table = new Map()));
    return table;
  }

  /** The entries of a list still in force at `now`, as `address -> comment`. */
  entries(menu: Menu, list: string, now: number): Map<string, string> {
    const out = new Map<string, string>();
    for (const [address, entry] of this.table(menu, list)) if (entry.endsAt > now) out.set(address, entry.comment);
    return out;
  }

  /** When an entry of a list runs out on the router (ms), if it holds it. */
  endsAt(menu: Menu, list: string, address: string): number | undefined {
    return this.table(menu, list).get(address)?.endsAt;
  }

  private expire(now: number): void {
    for (const table of this.lists.values())
      for (const [address, entry] of table) if (entry.endsAt <= now) table.delete(address);
  }

  /** `add`: fails (throws) when the list already holds the address, as RouterOS does. */
  private add(menu: Menu, list: string, address: string, comment: string, timeout: string, now: number): void {
    const table = this.table(menu, list);
    if (table.has(address)) throw new Error('failure: already have such entry');
    assert.equal(menu === 'ipv6', address.includes(':'), `${address} added to /${menu}`);
    table.set(address, { comment, endsAt: now + seconds(timeout) * 1000 });
  }

  /** The one entry a `find` by address selects (its plain or `/128` form), if any. */
  private found(menu: Menu, list: string, match: string[]): string | undefined {
    const [plain, either, slash128] = match.map((m) => (m === undefined ? undefined : unescapeRouterOs(m)));
    if (either !== undefined) assert.equal(slash128, `${either}/128`, 'the /128 form of the same address');
    const table = this.table(menu, list);
    return [plain, either, slash128].find((a) => a !== undefined && table.has(a));
  }

  /** Runs a script the feed wrote, as `/import` would at `now`. */
  run(script: string, now: number): void {
    this.expire(now);
    this.ran = {};
    const functions = new Map<string, { menu: Menu; list: string }>();
    const lines = script.split('\n');
    assert.equal(lines.pop(), '', 'a script ends with a newline');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      assert.match(line, /^[\x20-\x7e]*$/, `non-printable byte in ${JSON.stringify(line)}`);
      const form = (Object.keys(FORMS) as Array<keyof typeof FORMS>).find((name) => FORMS[name].test(line));
      assert.ok(form, `not a line the feed writes: ${JSON.stringify(line)}`);
      this.ran[form] = (this.ran[form] ?? 0) + 1;
      const m = FORMS[form].exec(line)!;
      switch (form) {
        case 'empty':
        case 'global':
          break;
        case 'removeList':
          this.table(m[1] as Menu, m[2]!).clear();
          break;
        case 'removeOne': {
          const address = this.found(m[1] as Menu, m[2]!, m.slice(3, 6));
          if (address !== undefined) this.table(m[1] as Menu, m[2]!).delete(address);
          break;
        }
        case 'defineStart': {
          const body = FORMS.defineBody.exec(lines[i + 1] ?? '');
          assert.ok(body && FORMS.defineEnd.test(lines[i + 2] ?? ''), `function ${m[1]}: its body`);
          functions.set(m[1]!, { menu: body[1] as Menu, list: body[2]! });
          i += 2;
          break;
        }
        case 'call': {
          const fn = functions.get(m[1]!);
          assert.ok(fn, `call of an undefined function ${m[1]}`);
          try {
            this.add(fn.menu, fn.list, unescapeRouterOs(m[2]!), unescapeRouterOs(m[3]!), m[4]!, now);
          } catch {
            // on-error={ }
          }
          break;
        }
        case 'swap': {
          const [, menu, live, menu2, loaded, target] = m;
          assert.ok(menu === menu2 && live === target, `a swap of one list: ${line}`);
          const table = this.table(menu as Menu, live!);
          table.clear();
          for (const [address, entry] of this.table(menu as Menu, loaded!)) table.set(address, entry);
          this.table(menu as Menu, loaded!).clear();
          break;
        }
        case 'unset':
          assert.ok(functions.delete(m[1]!), `unset of an undefined function ${m[1]}`);
          break;
        case 'setGlobal':
          assert.equal(m[1], m[2], 'the :global declared is the one set');
          this.globals.set(m[1]!, unescapeRouterOs(m[3]!));
          break;
        case 'upsert': {
          const [, menu, list, address, comment, timeout, menu2, , ...rest] = m;
          assert.equal(menu, menu2);
          assert.equal(m[7], list, 'the set finds the same list');
          const [plain, either, slash128, comment2, timeout2] = rest;
          assert.ok(comment2 === comment && timeout2 === timeout, 'add and set write the same fields');
          const value = unescapeRouterOs(address!);
          try {
            this.add(menu as Menu, list!, value, unescapeRouterOs(comment!), timeout!, now);
          } catch {
            const found = this.found(menu as Menu, list!, [plain!, either!, slash128!]);
            assert.equal(found, value, 'the set finds the entry the add failed on');
            this.table(menu as Menu, list!).set(found, {
              comment: unescapeRouterOs(comment!),
              endsAt: now + seconds(timeout!) * 1000,
            });
          }
          break;
        }
      }
    }
    assert.equal(functions.size, 0, 'every function is cleared at the end');
  }
}
