#!/usr/bin/env node
// `npm run contract`: writes the console's API types (src-shared/contract/openapi.d.ts) from the
// OpenAPI document the core declarations give. Run under tsx (the server is TypeScript).
import { writeFileSync } from 'node:fs';
import { coreResources } from '../src-server/resources/index.ts';
import { CONTRACT_TYPES_PATH, contractTypes } from '../src-server/openapi/contract-types.ts';

const text = await contractTypes(coreResources.map((resource) => resource.declaration));
writeFileSync(new URL(`../${CONTRACT_TYPES_PATH}`, import.meta.url), text);
console.log(`${CONTRACT_TYPES_PATH}: ${text.split('\n').length} lines`);
