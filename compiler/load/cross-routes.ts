// Routes across the configs served together (`check a.yaml b.yaml`, `serve a.yaml b.yaml`): the same
// method and route in two files is reported at the second one, as within one file (lint-routes.ts),
// and a route on the metrics endpoint or the MCP route another config serves (the server could not
// start with both).
import type { ConfigIR } from '../../runtime/config-ir.ts';
import type { Diagnostic } from '../source/diagnostics.ts';
import { routeKey } from './routes.ts';

export function crossFileRouteConflicts(configs: Array<{ file: string; ir?: ConfigIR }>): Diagnostic[] {
  const seen = new Map<string, string>();
  const out: Diagnostic[] = [];
  const metrics = configs.find((c) => c.ir?.exposeMetrics)?.file;
  const tools = configs.find((c) => c.ir?.interfaces.some((i) => i.mcp))?.file;
  const org = encodeURIComponent(process.env.SERVICE__ORG || 'local'), env = encodeURIComponent(process.env.SERVICE__ENVIRONMENT || 'dev');
  for (const { file, ir } of configs) {
    if (!ir) continue;
    const mine = new Set<string>();
    for (const i of ir.interfaces) {
      if (i.output === 'cli') continue;
      for (const m of i.method.split(',').map((x) => x.trim())) {
        const key = routeKey(m, i.route);
        const other = seen.get(key);
        if (other !== undefined && !mine.has(key)) {
          out.push({ file, line: i.line, col: 3, severity: 'error', path: ['interfaces', i.name], message: `${m} ${i.route} of interface "${i.name}" is already served by ${other}`, hint: 'configs served together need distinct routes: change one route or method' });
        }
        mine.add(key);
        const path = i.route.replace(/\/+$/, '');
        const builtIn = metrics && metrics !== file && path === '/metrics' && (m === 'GET' || m === 'HEAD') ? `the metrics endpoint ${metrics} exposes (expose_metrics: true)`
          : tools && tools !== file && path === `/${org}/${env}/mcp` && ['GET', 'POST', 'DELETE'].includes(m) ? `the MCP route of the tools in ${tools}` : undefined;
        if (builtIn) out.push({ file, line: i.line, col: 3, severity: 'error', path: ['interfaces', i.name], message: `${m} ${i.route} of interface "${i.name}" is ${builtIn}: the server could not start with both`, hint: 'choose another route' });
        if (other === undefined) seen.set(key, `interface "${i.name}" of ${file}`);
      }
    }
  }
  return out;
}
