// Inbound credential settings, read once at start. Anything weak or dangling is refused with a
// one-line StartupError rather than served half-configured.
import type { Environment } from '../../scope.ts';

import { StartupError } from '../startup-errors.ts';

export { StartupError };

export interface InboundSettings {
  /** Organization API keys (values of the secrets named by SERVICE__API_KEYS). */
  apiKeys: string[];
  /** HS256/384/512 shared secret. */
  jwtSecret?: string;
  /** JWKS endpoint for RS/ES/PS/EdDSA tokens. */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** SERVICE__JWT_REQUIRE_EXP (on unless 0/false): a JWT without `exp` is refused (it would be valid forever). */
  requireExp?: boolean;
  /** The management surface's own credential. */
  adminToken?: string;
}

export const MIN_ADMIN_TOKEN = 16;
export const MIN_API_KEY = 16;
export const MIN_JWT_SECRET = 32;

export function inboundSettings(vars: Record<string, string | undefined>, env: Environment): InboundSettings {
  const v = (k: string) => (vars[k] === undefined || vars[k] === '' ? undefined : vars[k]);
  const names = (v('SERVICE__API_KEYS') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const apiKeys = names.map((n) => {
    const key = env.secret(n);
    if (key === undefined || key === '') throw new StartupError(`SERVICE__API_KEYS names ${n}, but SERVICE__SECRET__${n} is not set`);
    if (key.length < MIN_API_KEY) throw new StartupError(`API key ${n} is ${key.length} characters; at least ${MIN_API_KEY} are required`);
    return key;
  });
  const out: InboundSettings = { apiKeys };
  const admin = v('SERVICE__ADMIN_TOKEN');
  if (admin !== undefined) {
    if (admin.length < MIN_ADMIN_TOKEN) throw new StartupError(`SERVICE__ADMIN_TOKEN is ${admin.length} characters; at least ${MIN_ADMIN_TOKEN} are required`);
    out.adminToken = admin;
  }
  const secret = v('SERVICE__JWT_SECRET');
  if (secret !== undefined) {
    if (secret.length < MIN_JWT_SECRET) throw new StartupError(`SERVICE__JWT_SECRET is ${secret.length} characters; at least ${MIN_JWT_SECRET} are required`);
    out.jwtSecret = secret;
  }
  const jwks = v('SERVICE__JWKS_URL');
  if (jwks !== undefined) {
    let u: URL | undefined;
    try { u = new URL(jwks); } catch { /* below */ }
    if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:')) throw new StartupError('SERVICE__JWKS_URL must be an http(s) URL');
    out.jwksUrl = u.href;
  }
  const iss = v('SERVICE__JWT_ISSUER');
  const aud = v('SERVICE__JWT_AUDIENCE');
  if (iss) out.issuer = iss;
  if (aud) out.audience = aud;
  const exp = v('SERVICE__JWT_REQUIRE_EXP');
  if (exp !== undefined && !/^(1|true|0|false)$/i.test(exp)) throw new StartupError(`SERVICE__JWT_REQUIRE_EXP=${exp} must be 1 or true (JWTs need exp; the default) or 0 or false (JWTs without exp are accepted)`);
  out.requireExp = exp === undefined || /^(1|true)$/i.test(exp);
  return out;
}

/** Whether interfaces require a credential: any API key or JWT verifier configured. */
export const credentialsRequired = (s: InboundSettings) => s.apiKeys.length > 0 || !!s.jwtSecret || !!s.jwksUrl;
