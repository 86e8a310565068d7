// totp: {secret, key, encoding, digits, period, algorithm} -> the current RFC 6238 code as text
// (leading zeros kept) under `key`. encoding base32 (default; case, spaces and padding ignored),
// hex or ascii; digits 6 (default) to 10; period 1..3600 s (default 30); algorithm sha1 (default),
// sha256 or sha512. Time comes from util/clock.ts (frozen in tests).
import { TransformError, type TransformRun } from './types.ts';
import { nowMs } from './util/clock.ts';
import { choice, config, int, text, writeKey } from './util/fields.ts';
import { hotp, step, TOTP_ALGORITHMS, TOTP_ENCODINGS, totpKey } from './util/totp.ts';

const W = 'totp';

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const encoding = choice(a, 'encoding', W, TOTP_ENCODINGS, 'base32');
  const key = totpKey(text(a, 'secret', W, { nonEmpty: true }), encoding);
  if (typeof key === 'string') throw new TransformError(`${W}: ${key}`);
  const digits = int(a, 'digits', W, 6, 10, 6);
  const period = int(a, 'period', W, 1, 3600, 30);
  const algorithm = choice(a, 'algorithm', W, TOTP_ALGORITHMS, 'sha1');
  return writeKey(data, a, hotp(key, step(nowMs(), period), { algorithm, digits }), W);
};
