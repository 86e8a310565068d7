// The fixture configs: every `fixtures/*.yaml` except the hermetic test cases beside them
// (`<name>.tests.yaml`), which are not configs.
import { readdirSync } from 'node:fs';

export function fixtureConfigs(dir = 'fixtures'): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.yaml') && !f.endsWith('.tests.yaml')).sort();
}
