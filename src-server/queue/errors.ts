import { HttpError } from '../wire/errors.ts';

/** The queue's own refusals, each with its status and stable id (rendered like any API error). */

/** 503: the bounded queue is at APIQueueMaxLength. */
export const queueFull = () =>
  new HttpError(
    503,
    ['The service is temporarily unavailable, please retry later.'],
    { 'Retry-After': '1' },
    'queue_full',
  );
/** 503: the database stayed busy through every attempt. */
export const databaseBusy = () =>
  new HttpError(503, ['The database is busy; retry shortly.'], { 'Retry-After': '1' }, 'database_busy');
/** 504: no worker answered within the wait limit. */
export const waitTimeout = (maxWaitMs: number) =>
  new HttpError(
    504,
    [`No worker finished the request within ${Math.round(maxWaitMs / 1000)} s; retry later.`],
    {},
    'queue_wait_timeout',
  );
/** 400: the job cannot be structured-cloned to a worker. */
export const jobNotTransferable = () =>
  new HttpError(
    400,
    ['The request cannot be handed to a worker; send a smaller or flatter body.'],
    {},
    'job_not_transferable',
  );
/** 400: an X-Async-Channel name outside the grammar. */
export const malformedChannel = () =>
  new HttpError(
    400,
    ['Malformed channel name: use 1 to 128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit.'],
    {},
    'malformed_channel',
  );
