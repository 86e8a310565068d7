// One assertion operator of a Test object (`is_greater_than: 5`). Operators are pure: no scope,
// no secrets; a message only ever shows the values being compared.
export interface AssertOp {
  /** Whether `actual` passes given the operator's configured value `expected`. */
  check(actual: unknown, expected: unknown): boolean;
  /** Why it failed, e.g. `expected 3 to be greater than 5`. */
  explain(actual: unknown, expected: unknown): string;
}
