// generate_password: {key, length, classes..., exclude_similar_characters, strict} -> a random
// password under `key`. Classes: numbers, lowercase_letters, uppercase_letters (on by default),
// symbols, spaces (off by default). Symbols leave out quotes, backslash and backtick so the password
// survives shells, JSON and SQL literals. exclude_similar_characters drops i l 1 L o 0 O |.
// strict guarantees one character of each chosen class (placed at a random position). Every pick
// uses crypto.randomInt (uniform, unpredictable). length 4..256.
import { randomInt } from 'node:crypto';
import { TransformError, type TransformRun } from './types.ts';
import { config, flag, int, writeKey } from './util/fields.ts';

const W = 'generate_password';

const CLASSES = {
  numbers: ['0123456789', true],
  lowercase_letters: ['abcdefghijklmnopqrstuvwxyz', true],
  uppercase_letters: ['ABCDEFGHIJKLMNOPQRSTUVWXYZ', true],
  symbols: ['!#$%&()*+,-./:;<=>?@[]^_{|}~', false],
  spaces: [' ', false],
} as const;
const SIMILAR = /[il1Lo0O|]/g;

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const length = int(a, 'length', W, 4, 256);
  const noSimilar = flag(a, 'exclude_similar_characters', W, false);
  const sets = Object.entries(CLASSES)
    .filter(([name, [, on]]) => flag(a, name, W, on))
    .map(([, [chars]]) => (noSimilar ? chars.replace(SIMILAR, '') : chars));
  if (sets.length === 0) throw new TransformError(`${W}: every character class is turned off`);
  const strict = flag(a, 'strict', W, false);
  if (strict && sets.length > length) throw new TransformError(`${W}: strict needs a length of at least ${sets.length}, one per class`);

  const pool = sets.join('');
  const pick = (s: string) => s[randomInt(s.length)];
  const out = Array.from({ length }, () => pick(pool));
  if (strict) {
    // Fisher–Yates over positions, then one character of each class at the first positions drawn.
    const pos = out.map((_, i) => i);
    for (let i = pos.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [pos[i], pos[j]] = [pos[j], pos[i]];
    }
    sets.forEach((s, i) => (out[pos[i]] = pick(s)));
  }
  return writeKey(data, a, out.join(''), W);
};
