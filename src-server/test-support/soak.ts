/**
 * Soak sizes: `npm test` runs a scenario at its everyday size; CI's second step
 * (`npm run test:soak`, PBX_TEST_SOAK=1) runs the same scenario at soak size. A test sizes its
 * run with this, and .ci/test.mjs puts every file that calls it in the soak lane too.
 */
export const soakSize = (everyday: number, soak: number): number =>
  process.env.PBX_TEST_SOAK === '1' ? soak : everyday;
