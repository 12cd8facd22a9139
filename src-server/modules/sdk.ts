import { z } from 'zod';
import { badRequest, conflict, forbidden, HttpError, notFound, unprocessable } from '../wire/errors.ts';
import { crudActions } from '../resource-kit/crud.ts';
import { field, flagInput, flagValue } from '../resource-kit/fields.ts';
import { created, failure, invalid, ok, recordNotFound } from '../resource-kit/results.ts';
import { singletonActions } from '../resource-kit/singleton.ts';
import { defineActions, defineResource } from '../resource-kit/types.ts';

/**
 * What a module's `register(sdk)` receives: the same building blocks core resources use, so a
 * module declared anywhere on disk needs no packages of its own and shares core's zod instance
 * (the OpenAPI generator reads its schemas).
 */
export const moduleSdk = {
  z,
  field,
  // The API's flag rule for a custom method's input: declare with flagInput(), read with flagValue().
  flagInput,
  flagValue,
  defineResource,
  defineActions,
  crudActions,
  singletonActions,
  ok,
  created,
  failure,
  invalid,
  recordNotFound,
  errors: { HttpError, badRequest, forbidden, notFound, conflict, unprocessable },
};

export type ModuleSdk = typeof moduleSdk;
