// Refuses every field of ./unbuilt.ts that a config sets, at the field's key.
import { describeSubject } from '../source/describe.ts';
import type { ConfigPath } from '../source/yaml.ts';
import type { Report } from './report.ts';
import { UNBUILT, type UnbuiltOwner } from './unbuilt.ts';
import { forEachAction, isObj, type InterfaceSite, type Obj } from './walk.ts';

export function lintUnbuilt(config: Obj, ifaces: InterfaceSite[], report: Report): void {
  const refuse = (owner: UnbuiltOwner, value: unknown, path: ConfigPath) => {
    if (!isObj(value)) return;
    for (const u of UNBUILT) {
      if (u.owner !== owner || value[u.field] === undefined) continue;
      const at = [...path, u.field];
      report('error', at, `${describeSubject(config, at)} is not available in this build`, `this build does not implement ${u.feature}; remove the field`);
    }
  };
  refuse('Config', config, []);
  for (const site of ifaces) {
    refuse('Interface', site.iface, site.path);
    refuse('InterfaceResponse', site.iface.response, [...site.path, 'response']);
    forEachAction(site, (a) => refuse('Action', a.action, a.path));
  }
}
