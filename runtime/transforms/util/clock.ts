// The clock behind time-based transforms (totp, add_jwt, read_jwt, s3_generate_presigned_url):
// Date.now() in production; tests freeze it to reproduce published vectors, and a hermetic test
// case runs on its virtual clock (runtime/testing/run-case.ts).
let clock: () => number = () => Date.now();

export const nowMs = (): number => clock();

/** Freeze or replace the clock (a test case sets its virtual clock); call with no argument to
 *  restore Date.now(). Returns the clock it replaced, for the caller to put back. */
export function setClock(f?: () => number): () => number {
  const before = clock;
  clock = f ?? (() => Date.now());
  return before;
}
