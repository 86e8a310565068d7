// Where secrets and variables come from when self-hosted: SERVICE__SECRET__<NAME> and
// SERVICE__VAR__<NAME> environment variables, or files named by SERVICE__SECRET__<NAME>_FILE
// (runtime/file-values.ts; see docs/interpolation.md). Values are never logged.
import { randomUuid } from './uuid.ts';
import { isFileSetting, withFileValues } from './file-values.ts';
import type { Environment } from './scope.ts';

/** Variables and secrets from `env`, by default the process environment as it is now: a copy, since a
 *  read of process.env costs about half a microsecond (an interceptor into C++) and a request makes
 *  several; environments are fixed at start. A null prototype keeps names like `constructor` data. */
export function processEnvironment(given: NodeJS.ProcessEnv = Object.assign(Object.create(null) as NodeJS.ProcessEnv, process.env), uuid: () => string = randomUuid): Environment {
  const env = withFileValues(given);
  // Variables are redacted too: the spec supplies signing secrets as a|var::NAME| (values shorter
  // than 4 characters are left alone, or every "1" in a capture would be hidden). Scanned once, when
  // first needed (scanning the environment per request showed in profiles).
  let sensitive: string[] | undefined;
  return {
    secret: (n) => env[`SERVICE__SECRET__${n}`],
    variable: (n) => env[`SERVICE__VAR__${n}`],
    env: (n) => env[n],
    uuid,
    sensitiveValues: () =>
      (sensitive ??= [
        ...Object.entries(env)
          .filter(([k, v]) => (k.startsWith('SERVICE__SECRET__') || k.startsWith('SERVICE__VAR__')) && !isFileSetting(k) && typeof v === 'string' && v.length >= 4)
          .map(([, v]) => v as string),
        ...urlPassword(env.SERVICE__SMTP_URL),
      ]),
  };
}

/** The password of a service-wide URL setting (SERVICE__SMTP_URL), as written and decoded. */
export function urlPassword(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const p = new URL(url).password;
    return p.length >= 4 ? [p, decodeURIComponent(p)] : [];
  } catch { return []; }
}
