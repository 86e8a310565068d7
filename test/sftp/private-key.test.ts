// An SFTP private key is parsed once per key text and passphrase (ssh2 parses what it is given on
// every connect; an encrypted OpenSSH key takes bcrypt_pbkdf, hundreds of ms with the server stalled).
// A key that cannot be used is refused every time with ssh2's own message.
import { utils } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { privateKeyOf } from '../../runtime/actions/sftp/private-key.ts';

describe('privateKeyOf', () => {
  const passphrase = 'correct horse battery';
  // 2 bcrypt rounds: an encrypted key all the same (ssh-keygen's 16 cost seconds to make and to parse).
  const encrypted = utils.generateKeyPairSync('ed25519', { passphrase, cipher: 'aes256-ctr', rounds: 2 }).private;
  const plain = utils.generateKeyPairSync('ed25519').private;

  it('parses a key once: the same parsed key for the same text and passphrase', () => {
    const k = privateKeyOf(encrypted, passphrase);
    expect(k.getPrivatePEM()).toContain('PRIVATE KEY');
    expect(privateKeyOf(encrypted, passphrase)).toBe(k);
    expect(privateKeyOf(plain, undefined)).toBe(privateKeyOf(plain, undefined));
    expect(privateKeyOf(plain, undefined)).not.toBe(k);
  });

  it('refuses a wrong passphrase or a text that is not a key, every time', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => privateKeyOf(encrypted, 'wrong')).toThrow(/^Cannot parse privateKey: /);
      expect(() => privateKeyOf('not a key', undefined)).toThrow(/^Cannot parse privateKey: /);
    }
    // A public key parses but holds no private key.
    expect(() => privateKeyOf(utils.generateKeyPairSync('ed25519').public, undefined)).toThrow('privateKey value does not contain a (valid) private key');
  });
});
