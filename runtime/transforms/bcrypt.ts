// bcrypt: {key, value | jq, cost} -> the bcrypt hash ($2b$, cost default 10) of the text given
// by `value` or selected from the data by `jq`, written under `key`. Async: bcryptjs is pure JS,
// and its async form yields to the event loop, so one hash does not stall other requests.
// Cost 4..15 (15 is ~2.5 s in bcryptjs). Input over bcrypt's 72-byte limit fails instead of being
// silently truncated (two passwords sharing 72 bytes would otherwise match).
import bcryptjs from 'bcryptjs';
import { TransformError } from './types.ts';
import { guardAsync } from './util/args.ts';
import { config, int, writeKey } from './util/fields.ts';
import { kindOf, splitPath } from './util/path.ts';

const W = 'bcrypt';

export async function run(data: unknown, args: unknown): Promise<unknown> {
  const a = config(args, W);
  if ((a.value === undefined) === (a.jq === undefined)) throw new TransformError(`${W}: set exactly one of \`value\` and \`jq\``);
  if (a.jq !== undefined && typeof a.jq !== 'function') throw new TransformError(`${W}: \`jq\` must be a jq program`);
  const cost = int(a, 'cost', W, 4, 15, 10);
  splitPath(a.key, W); // a bad output field fails before the (deliberately slow) hash
  const v = a.jq !== undefined ? await guardAsync(W, () => (a.jq as (d: unknown) => unknown)(data)) : a.value;
  if (typeof v !== 'string' && typeof v !== 'number') throw new TransformError(`${W}: the value to hash must be text, got ${kindOf(v)}`);
  const plain = String(v);
  if (plain === '') throw new TransformError(`${W}: the value to hash is empty`);
  if (Buffer.byteLength(plain, 'utf8') > 72) throw new TransformError(`${W}: the value to hash is longer than bcrypt's 72-byte limit`);
  const hash = await bcryptjs.hash(plain, await bcryptjs.genSalt(cost));
  return writeKey(data, a, hash, W);
}
