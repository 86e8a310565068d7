// ajv for the compiler and `check`, required on first use: a valid config never needs it for its
// own validation (the prebuilt validator: ajv.ts), most have no schema of their own to compile, and
// loading ajv was a third of `check`'s start.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const ajvLib = (): typeof import('ajv') => require('ajv') as typeof import('ajv');
export const ajvStandalone = (): typeof import('ajv/dist/standalone/index.js').default => {
  const m = require('ajv/dist/standalone/index.js') as { default?: unknown };
  return (m.default ?? m) as typeof import('ajv/dist/standalone/index.js').default;
};
