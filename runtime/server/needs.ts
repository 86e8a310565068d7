// Secrets, variables and environment values a config reads without a `->default()` must be set
// before a server starts: an unset one would be sent as an empty string (an approval link without
// its base URL, a request without its key). SERVICE__ALLOW_MISSING_VALUES=1 starts anyway.
import type { NeedIR } from '../config-ir.ts';
import type { Plan } from '../plan.ts';
import type { Environment } from '../scope.ts';
import { StartupError } from './startup-errors.ts';

const SETTING: Record<string, (n: string) => string> = {
  secret: (n) => `SERVICE__SECRET__${n}`, ap_secret: (n) => `SERVICE__SECRET__${n}`,
  var: (n) => `SERVICE__VAR__${n}`, ap_var: (n) => `SERVICE__VAR__${n}`, env: (n) => n,
};

/** The setting that gives a value: `SERVICE__VAR__API` for a|var::API|. */
export const settingOf = (n: NeedIR): string => SETTING[n.root]!(n.name);

/** The values a config (or plan) reads with no fallback that `env` does not set. */
export function unsetNeeds(config: { needs?: NeedIR[] }, env: Environment): NeedIR[] {
  return (config.needs ?? []).filter((n) => (n.root.endsWith('secret') ? env.secret(n.name) : n.root.endsWith('var') ? env.variable(n.name) : env.env(n.name)) === undefined);
}

interface Located { name: string; line: unknown; actions?: Located[] }

/** Where a value is read, in words and lines: `interface "x", action "Fetch" (line 14)`. Works on
 *  a plan and on the IR alike (both carry each action's line). */
export function needPlace(config: { interfaces: Located[] }, n: NeedIR): { where: string; line: number } {
  const i = config.interfaces.find((x) => x.name === n.iface);
  const find = (list: Located[] | undefined): Located | undefined => {
    for (const a of list ?? []) { if (a.name === n.action) return a; const inner = find(a.actions); if (inner) return inner; }
    return undefined;
  };
  const a = n.action !== undefined ? find(i?.actions) : undefined;
  const line = Number((a ?? i)?.line ?? 0);
  return { where: `interface "${n.iface}"${n.action !== undefined ? `, action "${n.action}"` : ''}`, line };
}

/** One line per value that is not set: the marker, the setting that gives it, where it is read. */
export function missingValues(plans: readonly Plan[], env: Environment): string[] {
  return plans.flatMap((p) => unsetNeeds(p, env).map((n) => {
    const { where, line } = needPlace(p as unknown as { interfaces: Located[] }, n);
    return `a|${n.root}::${n.name}| (${settingOf(n)}) in ${p.name}, ${where}, line ${line}`;
  }));
}

/** Refuses the start when a value is missing, unless SERVICE__ALLOW_MISSING_VALUES=1; returns the
 *  missing ones (then only to be warned about). */
export function refuseMissingValues(plans: readonly Plan[], env: Environment, settings: Record<string, string | undefined>): string[] {
  const missing = missingValues(plans, env);
  const allow = settings.SERVICE__ALLOW_MISSING_VALUES;
  if (allow !== undefined && allow !== '0' && allow !== '1') throw new StartupError(`SERVICE__ALLOW_MISSING_VALUES=${allow} is not 0 or 1`);
  if (missing.length && allow !== '1') {
    throw new StartupError(`${missing.length === 1 ? 'a value the config reads is' : `${missing.length} values the configs read are`} not set (set them, add ->default(...) to the marker, or SERVICE__ALLOW_MISSING_VALUES=1 to start anyway):\n  ${missing.join('\n  ')}`);
  }
  return missing;
}
