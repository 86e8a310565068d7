// A `credential` name resolves to secrets (SERVICE__SECRET__<NAME>_…, so captures and logs redact
// them like any secret): aws reads <NAME>_ACCESS_KEY_ID, <NAME>_SECRET_ACCESS_KEY and optionally
// <NAME>_SESSION_TOKEN; google reads <NAME>_SERVICE_ACCOUNT, a service-account key file (JSON with
// client_email and private_key). Messages name the variables, never their values.
import type { Environment } from '../../scope.ts';
import { CloudError } from './signed-url.ts';

const NAME = /^[A-Za-z0-9_]{1,100}$/;

function secretOf(env: Environment, cred: string, suffix: string, who: string): string | undefined {
  if (!NAME.test(cred)) throw new CloudError(`${who}: credential must be a name of letters, digits and _`);
  const v = env.secret(`${cred}_${suffix}`);
  return v === undefined || v === '' ? undefined : v;
}

export function awsCredential(env: Environment, cred: string) {
  const accessKeyId = secretOf(env, cred, 'ACCESS_KEY_ID', 'aws');
  const secretAccessKey = secretOf(env, cred, 'SECRET_ACCESS_KEY', 'aws');
  if (!accessKeyId || !secretAccessKey)
    throw new CloudError(`aws: credential "${cred}" is not configured: set SERVICE__SECRET__${cred}_ACCESS_KEY_ID and SERVICE__SECRET__${cred}_SECRET_ACCESS_KEY`);
  const sessionToken = secretOf(env, cred, 'SESSION_TOKEN', 'aws');
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

export function googleCredential(env: Environment, cred: string): { clientEmail: string; privateKey: string } {
  const raw = secretOf(env, cred, 'SERVICE_ACCOUNT', 'google');
  const where = `SERVICE__SECRET__${cred}_SERVICE_ACCOUNT`;
  if (!raw) throw new CloudError(`google: credential "${cred}" is not configured: set ${where} to the service account's JSON key`);
  let key: { client_email?: unknown; private_key?: unknown };
  try { key = JSON.parse(raw) as typeof key; } catch { throw new CloudError(`google: ${where} is not JSON (expected the service account's JSON key)`); }
  if (typeof key?.client_email !== 'string' || typeof key.private_key !== 'string')
    throw new CloudError(`google: ${where} has no client_email and private_key (expected the service account's JSON key)`);
  return { clientEmail: key.client_email, privateKey: key.private_key };
}
