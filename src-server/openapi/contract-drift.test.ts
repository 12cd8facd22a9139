import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { coreResources } from '../resources/index.ts';
import { CONTRACT_OPERATIONS_PATH, CONTRACT_TYPES_PATH, contractOperations, contractTypes } from './contract-types.ts';

// Each generated file of the console's contract, and what generates it from the declarations.
const GENERATED = [
  { path: CONTRACT_TYPES_PATH, generate: contractTypes },
  { path: CONTRACT_OPERATIONS_PATH, generate: contractOperations },
];

describe('console API types', () => {
  for (const { path, generate } of GENERATED) {
    it(`${path} is what the current server contract generates (run \`npm run contract\` after changing a declaration)`, async () => {
      const committed = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
      const generated = await generate(coreResources.map((resource) => resource.declaration));
      // The first differing line, so the failure says where the contract moved.
      const [before, after] = [committed.split('\n'), generated.split('\n')];
      const line = before.findIndex((text, i) => text !== after[i]);
      assert.ok(
        committed === generated,
        `${path} is stale from line ${line + 1}: committed ${JSON.stringify(before[line])}, ` +
          `generated ${JSON.stringify(after[line])}. Run \`npm run contract\`.`,
      );
    });
  }

  it('fail when the contract changes', async () => {
    const declarations = coreResources.map((resource) => resource.declaration);
    // A new answer field on one method is a contract change the committed file must follow.
    const changed = declarations.map((d) =>
      d.name === 'system'
        ? {
            ...d,
            customMethods: {
              ...d.customMethods,
              driftProbe: {
                verbs: ['GET' as const],
                scope: 'collection' as const,
                level: 'READ' as const,
                input: z.object({}),
                output: z.object({ probe: z.string() }),
              },
            },
          }
        : d,
    );
    assert.notEqual(await contractTypes(changed), await contractTypes(declarations));
    // A new method is a new entry of the operation map.
    assert.match(
      await contractOperations(changed),
      /'system\.driftProbe': \{ method: 'GET', path: 'system:driftProbe'/,
    );
    assert.doesNotMatch(await contractOperations(declarations), /driftProbe/);
  });
});
