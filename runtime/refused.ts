// An action refused because of what the request (or the outbound policy) asked for, not because of
// a fault: answered with `status` (400 for a hostile value, 403 for a denied destination), never retried.
export class Refused extends Error {
  constructor(message: string, readonly status: number) { super(message); }
}
