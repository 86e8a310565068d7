// What a request body's check against `accepts.schema` reports (runtime/contract/body-check.ts): a
// contract of the plan, so it lives with the contracts.

export interface Violation {
  /** JSON Pointer into the body ("" is the body itself). */
  path: string;
  /** The schema keyword that failed: type, required, minimum, pattern… */
  rule: string;
  message: string;
}

/** undefined when the body conforms, else what is wrong with it. */
export type BodyCheck = (body: unknown) => Violation[] | undefined;
