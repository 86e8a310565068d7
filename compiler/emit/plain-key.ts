// Field reads as a person would write them. The runtime reads a field as an own property
// (rt.at, calc.field, getDotted: `hasOwn(x, k) ? x[k] : undefined`, undefined for null and
// primitives, an index for arrays), so that a name like `constructor` never reaches a prototype.
// For most names a plain `x?.["k"]` gives the same for every value run data holds (JSON values:
// objects with Object.prototype or none, arrays, strings, numbers, booleans, null; and the Dates
// and Buffers drivers return) and costs a fraction of the own-property test (half of a fused
// filter → math → aggregate loop measured, "Performance: request path (round 4)"): those are
// the names no built-in prototype of such values has, and that are not array indexes.
import { _, type Code } from './code.ts';

const PROTOTYPES: object[] = [
  Object.prototype, Array.prototype, String.prototype, Number.prototype, Boolean.prototype,
  Date.prototype, Buffer.prototype, Map.prototype, Set.prototype, RegExp.prototype, Error.prototype,
];

/** True when `x?.[name]` reads what the runtime's own-property read of `name` reads, for any run data `x`. */
export function plainKey(name: string): boolean {
  return !/^-?\d+$/.test(name) && !PROTOTYPES.some((p) => name in p);
}

/** `subject`'s field `seg`: a plain read where that is the same, else the runtime's `rt.at`. */
export function readField(subject: Code, seg: string | number): Code {
  return typeof seg === 'string' && plainKey(seg) ? _`(${subject} as rt.Fields)?.[${seg}]` : _`rt.at(${subject}, ${seg})`;
}
