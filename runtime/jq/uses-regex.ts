// Which jq programs may run a regex: those run off the main thread (runtime/jq/pool.ts), and both paths
// make their leaves asynchronous. Pure, so the compiler decides with the same rule as the interpreter.

// Every jq builtin that reaches `_match_impl` is named in the program text (jq has no dynamic calls), so a
// word check is sound; a name inside a string literal only costs the worker round trip. A field (`.test`)
// or a variable (`$match`) of that name is not a call.
const REGEX_NAMES = /(?<![.$\w])(?:test|match|capture|scan|splits?|sub|gsub|_match_impl)\b/;

/** True when `program` may run a regex (conservative: false only when it cannot). */
export function mayRunRegex(program: string): boolean {
  return REGEX_NAMES.test(program);
}
