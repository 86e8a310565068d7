// A host key's fingerprint as `ssh-keygen -lf` prints it: SHA256 of the key blob, base64 without padding.
import { createHash } from 'node:crypto';

export const fingerprint = (key: Buffer): string => `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
