// label/break for compiled jq: `break $name` throws the label's own token, which only its label catches
// (jq errors and other labels' breaks pass through).

/** A fresh token for one entry into `label $name | ...`. */
export const label = (): object => ({});

/** In the label's catch: rethrows anything that is not this label's break. */
export function mustBreak(e: unknown, token: object): void {
  if (e !== token) throw e;
}
