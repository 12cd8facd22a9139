#!/usr/bin/env node
// `npm run contract`: writes the console's API types (src-shared/contract/openapi.d.ts) and its
// operation map (operations.ts) from the OpenAPI document the core declarations give. Run under tsx
// (the server is TypeScript).
import { writeFileSync } from 'node:fs';
import { coreResources } from '../src-server/resources/index.ts';
import {
  CONTRACT_OPERATIONS_PATH,
  CONTRACT_TYPES_PATH,
  contractOperations,
  contractTypes,
} from '../src-server/openapi/contract-types.ts';

const declarations = coreResources.map((resource) => resource.declaration);
for (const [path, text] of [
  [CONTRACT_TYPES_PATH, await contractTypes(declarations)],
  [CONTRACT_OPERATIONS_PATH, await contractOperations(declarations)],
]) {
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  console.log(`${path}: ${text.split('\n').length} lines`);
}
