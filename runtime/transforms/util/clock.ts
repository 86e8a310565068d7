// The clock behind time-based transforms (totp, add_jwt, read_jwt, s3_generate_presigned_url):
// Date.now() in production; tests freeze it to reproduce published vectors.
let clock: () => number = () => Date.now();

export const nowMs = (): number => clock();

/** Freeze or replace the clock; call with no argument to restore Date.now(). */
export function setClock(f?: () => number): void {
  clock = f ?? (() => Date.now());
}
