// Outbound authentication (spec: Authentication 1). Precedence when several are set: an explicit
// Authorization header in `headers` (checked by the caller), then bearer_auth, user/pass, URL
// userinfo, and digest_auth_user last because it only answers a 401 challenge.
import { deriveFrom } from '../../values/derived-secrets.ts';

export interface AuthPlan {
  /** Authorization header value to send on the first request. */
  header?: string;
  /** Credentials for answering a Digest challenge. */
  digest?: { user: string; pass: string };
}

export function planAuth(config: Record<string, unknown>, urlUser?: { user: string; pass: string }): AuthPlan {
  if (isSet(config.bearer_auth)) return { header: `Bearer ${String(config.bearer_auth)}` };
  if (isSet(config.user)) return { header: basic(String(config.user), isSet(config.pass) ? String(config.pass) : '') };
  if (urlUser) return { header: basic(urlUser.user, urlUser.pass) };
  if (isSet(config.digest_auth_user)) {
    return { digest: { user: String(config.digest_auth_user), pass: isSet(config.digest_auth_pass) ? String(config.digest_auth_pass) : '' } };
  }
  return {};
}

/** RFC 7617 Basic with UTF-8 credentials (what servers that declare charset="UTF-8" expect). */
export function basic(user: string, pass: string): string {
  const token = Buffer.from(`${user}:${pass}`, 'utf8').toString('base64');
  deriveFrom([user, pass], token); // redacted wherever it is echoed, when built from a secret
  return `Basic ${token}`;
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}
