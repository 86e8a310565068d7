// The private key of an SFTP config, parsed once per key text and passphrase. ssh2 parses the key
// it is given on every connect, synchronously: for an OpenSSH key with a passphrase that includes
// bcrypt_pbkdf in JavaScript (~357 ms measured), the whole server standing still on every attempt.
// A parsed key is taken by ssh2 as it is; a key that does not parse is refused every time.
// The default import: ssh2 is CommonJS, and Node's ESM loader does not see `utils` as a named export.
import ssh2, { type ParsedKey } from 'ssh2';
import { TextMemo } from '../../values/text-memo.ts';

const parsed = new TextMemo<ParsedKey>(32);

/** The key as ssh2 would parse it; throws ssh2's own messages for a key it cannot use. */
export function privateKeyOf(text: string, passphrase: string | undefined): ParsedKey {
  return parsed.get(JSON.stringify([text, passphrase ?? null]), () => {
    const r = ssh2.utils.parseKey(text, passphrase) as ParsedKey | ParsedKey[] | Error;
    if (r instanceof Error) throw new Error(`Cannot parse privateKey: ${r.message}`);
    // OpenSSH's format holds one key (ssh2 takes the first too).
    const key = Array.isArray(r) ? r[0]! : r;
    if (key.getPrivatePEM() === null) throw new Error('privateKey value does not contain a (valid) private key');
    return key;
  });
}
