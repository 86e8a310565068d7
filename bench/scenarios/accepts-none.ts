// accepts.ts without `accepts`: the baseline of the validator's cost.
import type { Scenario } from '../scenario.ts';
import { acceptsConfig, scenario as withSchema } from './accepts.ts';

export const scenario: Scenario = {
  ...withSchema,
  name: 'accepts-none',
  summary: 'POST an order with no accepts → the body echoed',
  config: acceptsConfig(''),
};
