// Random (version 4) UUIDs as flat strings. node's randomUUID draws the same entropy (randomFillSync,
// 128 ids at a time) but joins 20 pieces into a rope: every request id then cost the joins, about
// 600 bytes of pieces and a flattening copy when the x-run-id header was checked. Here the 36
// characters are written into a buffer and read back as one one-byte string.
import { randomFillSync } from 'node:crypto';

const IDS = 128;
const entropy = Buffer.alloc(16 * IDS);
let next = IDS;
const hex = Buffer.from('0123456789abcdef', 'latin1');
const text = Buffer.alloc(36);

/** A random version 4 UUID (RFC 9562), lower case: what crypto.randomUUID() returns. */
export function randomUuid(): string {
  if (next === IDS) { randomFillSync(entropy); next = 0; }
  const at = 16 * next++;
  let j = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[j++] = 0x2d; // '-'
    let b = entropy[at + i]!;
    if (i === 6) b = (b & 0x0f) | 0x40; // version 4
    else if (i === 8) b = (b & 0x3f) | 0x80; // variant 10xx
    text[j++] = hex[b >> 4]!;
    text[j++] = hex[b & 0x0f]!;
  }
  return text.toString('latin1', 0, 36);
}
