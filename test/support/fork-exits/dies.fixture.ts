// Run only by test/vitest/fork-exits.test.ts (through fork-exits/vitest.config.ts): a fork killed mid-file.
import { it } from 'vitest';

it('passes', () => {});
it('is killed with its fork', () => { process.kill(process.pid, 'SIGKILL'); });
