// Credentials at a WebSocket upgrade: the same keys and JWTs as HTTP interfaces. Browsers cannot set
// headers on a WebSocket, so the upgrade alone also takes the token as `?access_token=` (the
// convention of RFC 6750 §2.3); a missing credential is refused with 401, a wrong one with 403.
import type { Authenticate } from '../../realtime/ws-server.ts';
import { credentialsRequired, type InboundSettings } from './settings.ts';
import { verifier } from './verify.ts';

export function wsAuthenticate(s: InboundSettings): Authenticate | undefined {
  if (!credentialsRequired(s)) return undefined;
  const check = verifier(s);
  return async (req, url) => {
    const token = url.searchParams.get('access_token');
    const headers = token && !req.headers.authorization ? { ...req.headers, authorization: `Bearer ${token}` } : req.headers;
    const v = await check(headers);
    if (v === 'missing') return { ok: false, status: 401, message: 'a credential is required (Authorization: Bearer <API key or JWT>, X-API-Key, or ?access_token=)' };
    if (v === 'invalid') return { ok: false, status: 403, message: 'the credential is not accepted' };
    return { ok: true, identity: { authenticated: true } };
  };
}
