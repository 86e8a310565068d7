// Visiting the interfaces and (nested) actions of a config that may not match the schema:
// every access is guarded, so lints run even on a config with schema errors.
import { actionName } from '../source/describe.ts';
import type { ConfigPath } from '../source/yaml.ts';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface InterfaceSite {
  name: string;
  iface: Obj;
  path: ConfigPath;
  /** Every action name of the interface, nested ones included. */
  allNames: Set<string>;
}

export interface ActionSite {
  iface: InterfaceSite;
  action: Obj;
  path: ConfigPath;
  /** `name`, else `action`, else `#<position>`. */
  name: string;
  /** Names this action may reference: earlier siblings and, for a nested action, what its lookup could. */
  earlier: string[];
  /** Names of the enclosing lists, which a nested action must not reuse. */
  outer: string[];
}

export function interfaces(config: unknown): InterfaceSite[] {
  if (!isObj(config) || !isObj(config.interfaces)) return [];
  return Object.entries(config.interfaces).flatMap(([name, iface]) => {
    if (!isObj(iface)) return [];
    const site: InterfaceSite = { name, iface, path: ['interfaces', name], allNames: new Set() };
    forEachAction(site, (a) => identities(a.action).forEach((n) => site.allNames.add(n)));
    return [site];
  });
}

/** Depth-first, in run order. */
export function forEachAction(iface: InterfaceSite, visit: (site: ActionSite) => void): void {
  const walk = (list: unknown, path: ConfigPath, before: string[], outer: string[]): void => {
    if (!Array.isArray(list)) return;
    const siblings = list.map(identities);
    list.forEach((action, i) => {
      if (!isObj(action)) return;
      const earlier = [...before, ...siblings.slice(0, i).flat()];
      const site: ActionSite = { iface, action, path: [...path, i], name: actionName(action, i), earlier, outer };
      visit(site);
      walk(action.actions, [...site.path, 'actions'], earlier, [...outer, ...siblings.flat()]);
    });
  };
  walk(iface.iface.actions, [...iface.path, 'actions'], [], []);
}

/** Both `name` and `action` identify an action in references. */
export function identities(action: unknown): string[] {
  if (!isObj(action)) return [];
  return [action.name, action.action].filter((v, i, all): v is string => typeof v === 'string' && all.indexOf(v) === i);
}

/** Every string in `value` with its path, skipping subtrees for which `skip(path)` holds. */
export function forEachString(value: unknown, path: ConfigPath, visit: (s: string, path: ConfigPath) => void, skip: (path: ConfigPath) => boolean): void {
  if (skip(path)) return;
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => forEachString(v, [...path, i], visit, skip));
  else if (isObj(value)) for (const [k, v] of Object.entries(value)) forEachString(v, [...path, k], visit, skip);
}
