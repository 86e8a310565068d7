// Most attribute transforms reshape "a record": the data itself when it is an object, or each
// object element when it is an array (API list responses). Other elements pass through untouched.
import { TransformError } from '../types.ts';
import { isObject, kindOf, type Rec } from './path.ts';

export function eachRecord(data: unknown, who: string, fn: (rec: Rec) => unknown): unknown {
  if (Array.isArray(data)) return data.map((el) => (isObject(el) ? fn(el) : el));
  if (isObject(data)) return fn(data);
  throw new TransformError(`${who}: expected an object or an array of objects, got ${kindOf(data)}`);
}
