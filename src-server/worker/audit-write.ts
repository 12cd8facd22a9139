import { auditDiff, type FieldChange } from '../audit/diff.ts';
import { recordWrite } from '../audit/store.ts';
import type { ActionResult } from '../wire/envelope.ts';
import type { ActionContext, ActionHandler, ResourceDefinition } from '../resource-kit/types.ts';
import type { JobRequest } from '../queue/messages.ts';
import { findHandler, runAction } from './dispatch.ts';

/** A write is any verb but GET: the CRUD writes, and POST/PUT/PATCH/DELETE custom methods. */
export const isAuditedWrite = (job: JobRequest): boolean => job.target.verb !== 'GET' && job.actor !== undefined;

const CRUD_WITH_RECORD = new Set(['update', 'patch', 'delete']);
/** The longest refusal reason kept in an entry. */
const REASON_CHARS = 500;

/** Why a write was refused, as its answer said it (the error messages, then the field errors). */
function refusalReason(result: ActionResult): string | null {
  if (result.result) return null;
  const errors = result.messages?.error ?? [];
  const text = errors.join(' ').trim();
  if (text === '') return null;
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text;
}

/** A preview (its answer says `dryRun: true`) changed nothing: it is not a change to log. */
const isPreview = (result: ActionResult): boolean =>
  result.result &&
  typeof result.data === 'object' &&
  result.data !== null &&
  (result.data as Record<string, unknown>).dryRun === true;

/** The record as its own getRecord action answers it, with sensitive fields visible (they are masked in the diff). */
async function readRecord(
  reader: ActionHandler | undefined,
  ctx: ActionContext,
  id: string | undefined,
): Promise<unknown> {
  if (!reader) return null;
  const answer = await runAction(reader, {
    ...ctx,
    operation: 'getRecord',
    verb: 'GET',
    id,
    body: {},
    query: {},
    canReadSensitive: true,
    emit: () => {},
  });
  return answer.result ? answer.data : null;
}

const idOf = (data: unknown, idField: string): string | undefined => {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const value = (data as Record<string, unknown>)[idField];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
};

/** A custom method's body as the audit log records it: fields declared `auditAsSize` by their size only. */
function recordedBody(definition: ResourceDefinition, ctx: ActionContext): unknown {
  const bySize = definition.declaration.customMethods?.[ctx.operation]?.auditAsSize;
  const body = ctx.body;
  if (!bySize || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const recorded: Record<string, unknown> = { ...body };
  for (const name of bySize)
    if (typeof recorded[name] === 'string') recorded[name] = `(${(recorded[name] as string).length} characters)`;
  return recorded;
}

/**
 * Runs a write and records it in the audit log, generically for every resource (core and module):
 * the record is read through the resource's own getRecord action before and after the write (same
 * worker, same connection), and the diff of the declared fields is stored with secrets masked.
 * Custom methods record the written body fields. A failed write is recorded with its status and no
 * diff. `secretNames` are the write-only and sensitive fields of every resource, masked at any depth
 * (a backup import carries the AMI secret inside `config`). The audit row never changes the answer: a failure
 * to record it is logged by the caller.
 */
export async function runAuditedWrite(
  definition: ResourceDefinition,
  handler: ActionHandler,
  ctx: ActionContext,
  job: JobRequest,
  onAuditError: (error: unknown) => void,
  secretNames: ReadonlySet<string> = new Set(),
): Promise<ActionResult> {
  const { declaration } = definition;
  const reader = declaration.operations.includes('getRecord') ? findHandler(definition, 'getRecord') : undefined;
  const singleton = declaration.kind === 'singleton';
  const crud = job.target.operation === 'create' || CRUD_WITH_RECORD.has(job.target.operation);
  const before =
    crud && (singleton || (CRUD_WITH_RECORD.has(job.target.operation) && ctx.id))
      ? await readRecord(reader, ctx, ctx.id)
      : null;
  const result = await runAction(handler, ctx);
  if (isPreview(result)) return result;
  try {
    const status = result.httpCode ?? (result.result ? 200 : 500);
    const idField = declaration.idField ?? 'id';
    const recordId = ctx.id ?? (job.target.operation === 'create' ? idOf(result.data, idField) : undefined) ?? null;
    let diff: FieldChange[] | null = null;
    if (result.result) {
      if (!crud) diff = auditDiff(declaration.fields, null, null, recordedBody(definition, ctx), secretNames);
      else if (job.target.operation === 'delete') diff = auditDiff(declaration.fields, before, null, {}, secretNames);
      else {
        const after = (await readRecord(reader, ctx, singleton ? undefined : (recordId ?? undefined))) ?? result.data;
        diff = auditDiff(
          declaration.fields,
          job.target.operation === 'create' ? null : before,
          after,
          ctx.body,
          secretNames,
        );
      }
    }
    if (diff && result.auditChanges) diff.push(...result.auditChanges);
    recordWrite(ctx.db, {
      at: ctx.now(),
      actor: job.actor!,
      resource: job.target.resource,
      recordId,
      operation: job.target.operation,
      verb: job.target.verb,
      status,
      diff,
      reason: refusalReason(result),
    });
  } catch (error) {
    onAuditError(error);
  }
  return result;
}
