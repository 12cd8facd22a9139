import { statement } from '../storage/database.ts';
import type { ActionResult, Messages } from '../wire/envelope.ts';
import { pageOf, paginationOf, type PageRequest } from './pagination.ts';
import { rowToValues, toPublicRecord, valuesToRow } from './records.ts';
import { created, failure, invalid, ok, recordNotFound } from './results.ts';
import { prepareSave, type SaveMode } from './save.ts';
import type { ActionContext, ActionHandler, PageInput, ResourceActions, ResourceDeclaration } from './types.ts';

export interface CrudOptions {
  table: string;
  /** Server-chosen ids; without it the client supplies the id field (or SQLite assigns one). */
  generateId?: () => string;
  /** Cross-field checks after defaults; return problems as sentences. */
  validate?: (complete: Record<string, unknown>, ctx: ActionContext) => string[];
  /** Read shape, when it differs from the stored fields. */
  present?: (values: Record<string, unknown>, ctx: ActionContext) => Record<string, unknown>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Generic CRUD over one table, implementing the SPEC's save semantics for a declared resource. */
export function crudActions(
  declaration: ResourceDeclaration,
  options: CrudOptions,
): Required<Omit<ResourceActions, 'custom'>> {
  const table = quote(options.table);
  const idField = declaration.idField ?? 'id';
  const idColumn = quote(idField);
  const clientChosenId = idField in declaration.fields && !declaration.fields[idField]!.readOnly && !options.generateId;

  const load = (ctx: ActionContext, id: string) => {
    const row = statement(ctx.db, `SELECT * FROM ${table} WHERE ${idColumn} = ?`).get(id) as
      | Record<string, unknown>
      | undefined;
    return row ? { ...rowToValues(declaration, row), [idField]: row[idField] } : undefined;
  };
  const present = (ctx: ActionContext, values: Record<string, unknown>) =>
    options.present
      ? options.present(values, ctx)
      : { [idField]: values[idField], ...toPublicRecord(declaration, values, ctx.canReadSensitive) };

  const getList: ActionHandler = (ctx) => {
    const page = pageOf(ctx.input as PageInput);
    const total = (statement(ctx.db, `SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const rows = (
      page
        ? statement(ctx.db, `SELECT * FROM ${table} ORDER BY ${idColumn} LIMIT ? OFFSET ?`).all(page.limit, page.offset)
        : statement(ctx.db, `SELECT * FROM ${table} ORDER BY ${idColumn}`).all()
    ) as Record<string, unknown>[];
    const data = rows.map((row) => present(ctx, { ...rowToValues(declaration, row), [idField]: row[idField] }));
    return ok(data, { pagination: paginationOf(total, page, data.length) });
  };

  const getRecord: ActionHandler = (ctx) => {
    const values = load(ctx, ctx.id!);
    return values ? ok(present(ctx, values)) : recordNotFound(declaration.name, ctx.id!);
  };

  const save =
    (mode: SaveMode): ActionHandler =>
    (ctx) =>
      ctx.db.transaction(() => {
        const existing = mode === 'create' ? undefined : load(ctx, ctx.id!);
        if (mode !== 'create' && !existing) return recordNotFound(declaration.name, ctx.id!);
        // On update the id comes from the path; a body need not repeat it.
        const body =
          existing && isPlainObject(ctx.body) && !(idField in ctx.body)
            ? { ...ctx.body, [idField]: existing[idField] }
            : ctx.body;
        const outcome = prepareSave({
          declaration,
          mode,
          verb: ctx.verb,
          body,
          existing,
          validate: options.validate && ((complete) => options.validate!(complete, ctx)),
        });
        if (!outcome.ok) return invalid(outcome.errors);
        const values = { ...outcome.values };

        if (mode === 'create') {
          let id: unknown = clientChosenId ? values[idField] : options.generateId?.();
          if (id !== undefined && load(ctx, String(id)))
            return failure(409, `A record with ${idField} "${String(id)}" already exists.`);
          if (id !== undefined) values[idField] = id;
          const row = valuesToRow(declaration, values);
          if (id !== undefined) row[idField] = id;
          const columns = Object.keys(row);
          const info = statement(
            ctx.db,
            `INSERT INTO ${table} (${columns.map(quote).join(', ')}) VALUES (${columns.map((c) => '@' + c).join(', ')})`,
          ).run(row);
          id ??= Number(info.lastInsertRowid);
          ctx.emit({ type: 'resource-changed', resource: declaration.name });
          return created(present(ctx, load(ctx, String(id))!));
        }

        if (idField in values && String(values[idField]) !== String(existing![idField])) {
          return invalid([`${idField} cannot be changed; create a new record instead.`]);
        }
        delete values[idField];
        const row = valuesToRow(declaration, values);
        const columns = Object.keys(row);
        if (columns.length) {
          statement(
            ctx.db,
            `UPDATE ${table} SET ${columns.map((c) => `${quote(c)} = @${c}`).join(', ')} WHERE ${idColumn} = @__id`,
          ).run({ ...row, __id: existing![idField] });
          ctx.emit({ type: 'resource-changed', resource: declaration.name });
        }
        return ok(present(ctx, load(ctx, ctx.id!)!));
      })();

  const remove: ActionHandler = (ctx) =>
    ctx.db.transaction(() => {
      const existing = load(ctx, ctx.id!);
      if (!existing) return recordNotFound(declaration.name, ctx.id!);
      statement(ctx.db, `DELETE FROM ${table} WHERE ${idColumn} = ?`).run(existing[idField]);
      ctx.emit({ type: 'resource-changed', resource: declaration.name });
      return ok({ [idField]: existing[idField] });
    })();

  return { getList, getRecord, create: save('create'), update: save('update'), patch: save('patch'), delete: remove };
}

/**
 * The hooks of a record resource whose storage and save rules are its own (api-keys hashes keys
 * and checks grants; firewall filters have their own read shape). `recordActions` supplies the
 * rest, shared with every record resource: pagination, 404s, the transaction, the change event and
 * the 201/200 answers.
 */
export interface RecordHooks<R> {
  /** The record a path id names; undefined when the id is malformed or unknown. */
  load(ctx: ActionContext, id: string | undefined): R | undefined;
  /** The records of one page (every record when `page` is null) and how many there are in all. */
  list(ctx: ActionContext, page: PageRequest): { total: number; records: R[] };
  /** The read shape of a record. */
  present(record: R, ctx: ActionContext): Record<string, unknown>;
  /**
   * Validates and writes a create (`existing` undefined) or an update or patch. Returns the
   * record's id (and members shown once in a create's answer, such as a generated key), or the
   * refusal to answer (422, 403, 409...).
   */
  write(
    ctx: ActionContext,
    mode: SaveMode,
    existing: R | undefined,
  ):
    | {
        id: string | number;
        shownOnce?: Record<string, unknown>;
        messages?: Messages;
        auditChanges?: ActionResult['auditChanges'];
      }
    | ActionResult;
  /** Deletes the record; returns its id. */
  remove(ctx: ActionContext, record: R): string | number;
}

/** CRUD actions of a record resource from its hooks (see RecordHooks). */
export function recordActions<R>(
  declaration: ResourceDeclaration,
  hooks: RecordHooks<R>,
): Required<Omit<ResourceActions, 'custom'>> {
  const { name } = declaration;
  const changed = (ctx: ActionContext) => ctx.emit({ type: 'resource-changed', resource: name });

  const getList: ActionHandler = (ctx) => {
    const page = pageOf(ctx.input as PageInput);
    const { total, records } = hooks.list(ctx, page);
    const data = records.map((record) => hooks.present(record, ctx));
    return ok(data, { pagination: paginationOf(total, page, data.length) });
  };

  const getRecord: ActionHandler = (ctx) => {
    const record = hooks.load(ctx, ctx.id);
    return record ? ok(hooks.present(record, ctx)) : recordNotFound(name, ctx.id ?? '');
  };

  const save =
    (mode: SaveMode): ActionHandler =>
    (ctx) =>
      ctx.db.transaction(() => {
        const existing = mode === 'create' ? undefined : hooks.load(ctx, ctx.id);
        if (mode !== 'create' && !existing) return recordNotFound(name, ctx.id ?? '');
        const outcome = hooks.write(ctx, mode, existing);
        if ('result' in outcome) return outcome;
        changed(ctx);
        const record = hooks.present(hooks.load(ctx, String(outcome.id))!, ctx);
        // Side effects the write reports (a trusted network lifting bans) reach the answer's messages.
        const extra = outcome.messages
          ? { messages: { error: [], ...outcome.messages }, auditChanges: outcome.auditChanges }
          : {};
        return mode === 'create' ? { ...created({ ...record, ...outcome.shownOnce }), ...extra } : ok(record, extra);
      })();

  const remove: ActionHandler = (ctx) =>
    ctx.db.transaction(() => {
      const record = hooks.load(ctx, ctx.id);
      if (!record) return recordNotFound(name, ctx.id ?? '');
      const id = hooks.remove(ctx, record);
      changed(ctx);
      return ok({ id });
    })();

  return { getList, getRecord, create: save('create'), update: save('update'), patch: save('patch'), delete: remove };
}
