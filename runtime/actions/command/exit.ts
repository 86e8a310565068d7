// expect_exit (spec: ExitExpectation): one code, a list of codes, or `any`; unset means 0. Any other
// string never matches (the load-time lint warns about it). `any` also accepts death by a signal.
export function exitAccepted(expect: unknown, code: number | null): boolean {
  if (expect === 'any') return true;
  if (code === null) return false;
  if (expect === undefined || expect === null) return code === 0;
  if (Array.isArray(expect)) return expect.some((x) => x === code);
  return expect === code;
}

export function describeExpectation(expect: unknown): string {
  if (expect === undefined || expect === null) return '0';
  return Array.isArray(expect) ? `one of ${expect.join(', ')}` : typeof expect === 'string' ? `"${expect}", which never matches` : String(expect);
}
