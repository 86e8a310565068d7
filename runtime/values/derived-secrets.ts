// Credentials the runtime builds from a secret: a Basic header's base64 of `user:pass`, a digest
// response, an HMAC made under a secret key. Their text is new, so no configured secret matches it
// when an upstream echoes it; they join the one redaction set (runtime/values/redact.ts) while they
// are recent. Kept process-wide (one environment per process; every redactor reads the same set),
// bounded, newest kept: a constant credential is registered again by every run that builds it.
const MAX_DERIVED = 256;

/** Every secret a redactor was made with (the test of "built from a secret"). */
const secrets = new Set<string>();
const derived = new Map<string, true>();
let version = 0;

/** Called by makeRedactor with its secret set. */
export function noteSecrets(values: readonly string[]): void {
  for (const v of values) if (v) secrets.add(v);
}

/** Whether `text` holds a configured secret. */
export function holdsSecret(text: string): boolean {
  if (!text) return false;
  for (const s of secrets) if (text.includes(s)) return true;
  return false;
}

/** Registers `made` (a credential built from `inputs`) for redaction when an input holds a secret. */
export function deriveFrom(inputs: readonly string[], made: string): void {
  if (made.length < 8 || !secrets.size) return;
  if (derived.has(made)) { derived.delete(made); derived.set(made, true); return; } // newest again; same set
  if (!inputs.some(holdsSecret)) return;
  derived.set(made, true);
  if (derived.size > MAX_DERIVED) derived.delete(derived.keys().next().value!);
  version++;
}

/** Changes whenever the set does (redactors rebuild their needles then). */
export const derivedVersion = (): number => version;
export const derivedTexts = (): string[] => [...derived.keys()];

/** The text forms an encoding of a string holding `secret` carries whatever precedes it: hex
 *  (lower and upper case), and base64 and base64url at each of the three byte alignments, without
 *  the edge characters the neighbouring bytes share. Only for secrets of 8+ characters (a shorter
 *  one's fragments would hide unrelated text). */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  if (secret.length < 8) return [];
  const hex = bytes.toString('hex');
  const out = [hex, hex.toUpperCase()];
  for (let k = 0; k < 3; k++) {
    const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    // Character i holds bits 6i..6i+5: it is the secret's alone from ceil(8k/6) to floor((8(k+n)-6)/6).
    const from = Math.ceil((8 * k) / 6), to = Math.floor((8 * (k + bytes.length) - 6) / 6);
    const piece = b64.slice(from, to + 1);
    out.push(piece, piece.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(out)];
}
