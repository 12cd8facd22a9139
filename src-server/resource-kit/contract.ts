import { z } from 'zod';
import { MAX_LIMIT } from './pagination.ts';
import type { CrudOperation, CustomMethodDecl, FieldDef } from './types.ts';

/**
 * Shared pieces of the operation contract: every custom method declares an `input` (its body, or
 * for GET its query string) and an `output` (the shape of `data` in a successful answer).
 */

/** Every CRUD operation: a collection that clients list, read, create, replace, patch and delete. */
export const ALL_CRUD_OPERATIONS: CrudOperation[] = ['getList', 'getRecord', 'create', 'update', 'patch', 'delete'];

/** A custom method read with GET on the collection path at the READ level: status reads, lookups and lists. */
export const READ_ON_COLLECTION: Pick<CustomMethodDecl, 'verbs' | 'scope' | 'level'> = {
  verbs: ['GET'],
  scope: 'collection',
  level: 'READ',
};

/** A GET method that reads nothing from its query: unknown parameters (cache busters, older clients) are ignored. */
export const NO_QUERY = z.object({});

/** A method that takes no body: an empty JSON object (or no body at all). */
export const NO_BODY = z.strictObject({});

const isLimit = (text: string) => /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_LIMIT;
const isOffset = (text: string) => /^\d+$/.test(text) && Number.isSafeInteger(Number(text));

/** `limit` and `offset` of a paged list (getList or a custom method); read with pageOf (pagination.ts). */
export const PAGE_QUERY = {
  limit: z
    .string()
    .refine(isLimit, { error: `limit must be an integer from 1 to ${MAX_LIMIT}.` })
    .optional()
    .describe('Page size, 1 to 1000; all records when neither limit nor offset is given.'),
  offset: z
    .string()
    .refine(isOffset, { error: 'offset must be a non-negative integer.' })
    .optional()
    .describe('Records to skip; 0 when absent.'),
};

/** The legacy module styles (v1 callbacks, v2 routes) declare no schemas: anything goes in, anything comes out. */
export const ANY_INPUT = z.unknown();
export const ANY_OUTPUT = z.unknown();

// Defined in src-shared/, where the schemas shared with the domain layer use it too.
export { isoTime } from '../../src-shared/iso-time.ts';

/** A record as the resource answers it: every field that is not write-only, with its declared schema. */
export function recordOutput(fields: Record<string, FieldDef>): z.ZodObject {
  return z.object(
    Object.fromEntries(
      Object.entries(fields)
        .filter(([, def]) => !def.writeOnly)
        .map(([name, def]) => [name, def.schema]),
    ),
  );
}

/** A provider's registration as sip:getRegistry and providers:getStatuses answer it. */
export const registryItem = z.object({
  state: z.enum(['OK', 'OFF']),
  id: z.string(),
  username: z.string(),
  host: z.string(),
});
