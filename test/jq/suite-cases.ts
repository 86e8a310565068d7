// Reads jq's own test file (test/suites/jq/jq.test) as jq's `--run-tests` does (src/jq_test.c): a test is
// a program line, an input line and expected output lines up to a blank or comment line; `%%FAIL` tests
// are a program that must not compile and the expected message (`%%FAIL IGNORE MSG`: any message).
import { readFileSync } from 'node:fs';

export type SuiteCase =
  | { kind: 'value'; line: number; program: string; input: string; expected: string[] }
  | { kind: 'fail'; line: number; program: string; message: string | null };

const skip = (l: string): boolean => /^[ \t]*(#|$)/.test(l);

export function suiteCases(): SuiteCase[] {
  const lines = readFileSync(new URL('../suites/jq/jq.test', import.meta.url), 'utf8').split('\n');
  const out: SuiteCase[] = [];
  let i = 0;
  const block = (): string[] => {
    const b: string[] = [];
    while (i < lines.length && !skip(lines[i])) b.push(lines[i++]);
    return b;
  };
  while (i < lines.length) {
    if (skip(lines[i])) { i++; continue; }
    const head = lines[i];
    if (head === '%%FAIL' || head === '%%FAIL IGNORE MSG') {
      const line = i + 2;
      i++;
      const program = lines[i++];
      const msg = block();
      out.push({ kind: 'fail', line, program, message: head === '%%FAIL' ? msg.join('\n') : null });
      continue;
    }
    const line = i + 1;
    i++;
    const input = lines[i++];
    out.push({ kind: 'value', line, program: head, input, expected: block() });
  }
  return out;
}
