// An action refused because of what the request (or the outbound policy) asked for, not because of
// a fault: answered with `status` (400 for a hostile value, 403 for a denied destination), never retried.

/** Every status the runtime refuses with: 400 a hostile request value, 403 a destination the outbound
 *  policy denies, 422 a jq bound the data exceeded, 503 every database pool busy. A record or a test
 *  case's stand-in that names a refusal names one of these (a new one is added here, or it does not
 *  type-check). */
export const REFUSAL_STATUSES = [400, 403, 422, 503] as const;
export type RefusalStatus = typeof REFUSAL_STATUSES[number];
/** A value read from a record (stored data, another server's JSON) or a recordings file. */
export const isRefusalStatus = (v: unknown): v is RefusalStatus => (REFUSAL_STATUSES as readonly unknown[]).includes(v);

export class Refused extends Error {
  constructor(message: string, readonly status: RefusalStatus) { super(message); }
}
