// Route checks the server would otherwise fail on at start: a method it does not know (`GE T`),
// the same method and route twice, and routes under /_ap/, which are the server's own; a route's
// syntax (route-syntax.ts); routes that shadow the server's other paths (/metrics, /mqtt, /ws/...,
// the MCP route), an error where serving both would fail at start.
import { HTTP_METHODS, routeKey, routeSites } from './routes.ts';
import { didYouMean } from '../source/suggest.ts';
import { routeSyntaxProblems } from './route-syntax.ts';
import { isObj } from './walk.ts';
import type { Report } from './report.ts';

const DEFAULT_ORG = 'local', DEFAULT_ENVIRONMENT = 'dev'; // runtime/server/app.ts

export function lintRoutes(config: unknown, report: Report): void {
  const seen = new Map<string, string>();
  for (const site of routeSites(config)) {
    const at = ['interfaces', site.iface];
    for (const m of site.methods) {
      if (!HTTP_METHODS.includes(m)) {
        report('error', [...at, 'method'], `method "${m}" of interface "${site.iface}" is not an HTTP method`, (HTTP_METHODS.includes(m.replace(/\s+/g, '')) ? `did you mean "${m.replace(/\s+/g, '')}"?` : didYouMean(m, HTTP_METHODS)) ?? `use one of ${HTTP_METHODS.join(', ')} (several separated by commas)`, 'value');
        continue;
      }
      const key = routeKey(m, site.route);
      const other = seen.get(key);
      if (other !== undefined) report('error', [...at, 'route'], `${m} ${site.route} of interface "${site.iface}" is already served by interface "${other}"`, 'give one of them another route or method', 'value');
      else seen.set(key, site.iface);
    }
    if (/^\/_ap(\/|$)/.test(site.route)) {
      report('error', [...at, 'route'], `route ${site.route} of interface "${site.iface}" is under /_ap/, which the server keeps for its own endpoints`, 'choose a route outside /_ap/', 'value');
      continue;
    }
    for (const p of routeSyntaxProblems(site.route)) report(p.severity, [...at, 'route'], `${p.message} (interface "${site.iface}")`, p.hint, 'value');
    const shadow = builtInShadow(config, site.route, site.methods);
    if (shadow) report(shadow.severity, [...at, 'route'], `route ${site.route} of interface "${site.iface}" ${shadow.message}`, 'choose another route', 'value');
  }
}

/** Whether `route` falls on a path the server serves itself (besides /_ap/). */
function builtInShadow(config: unknown, route: string, methods: string[]): { severity: 'error' | 'warning'; message: string } | undefined {
  const path = route.replace(/\/+$/, '') || '/';
  const c = isObj(config) ? config : {};
  if (path === '/metrics') {
    const clash = c.expose_metrics === true && methods.some((m) => m === 'GET' || m === 'HEAD');
    return clash
      ? { severity: 'error', message: 'is the metrics endpoint this config serves (expose_metrics: true): the server could not start with both' }
      : { severity: 'warning', message: 'shadows the metrics endpoint a config served with it may expose (expose_metrics: true)' };
  }
  if (path === '/mqtt') return { severity: 'warning', message: 'shadows the embedded MQTT broker\'s WebSocket endpoint (/mqtt): WebSocket upgrades there go to the broker when a config uses MQTT' };
  if (/^\/ws(\/|$)/.test(path)) return { severity: 'warning', message: 'is under /ws/, where WebSocket upgrades go to WebSocket interfaces (/ws/<org>/<env>/<interface>)' };
  const mcp = /^\/([^/]+)\/([^/]+)\/mcp(\/|$)/.exec(path);
  if (mcp) {
    const org = process.env.SERVICE__ORG || DEFAULT_ORG, env = process.env.SERVICE__ENVIRONMENT || DEFAULT_ENVIRONMENT;
    const tools = isObj(c.interfaces) && Object.values(c.interfaces).some((i) => isObj(i) && isObj(i.mcp) && i.mcp.enabled === true);
    const clash = tools && mcp[1] === encodeURIComponent(org) && mcp[2] === encodeURIComponent(env) && methods.some((m) => m === 'GET' || m === 'POST' || m === 'DELETE');
    return clash
      ? { severity: 'error', message: `is the MCP route of this config's tools (/<org>/<env>/mcp with SERVICE__ORG=${org}, SERVICE__ENVIRONMENT=${env}): the server could not start with both` }
      : { severity: 'warning', message: 'has the shape of the MCP route (/<org>/<env>/mcp): it is shadowed when SERVICE__ORG and SERVICE__ENVIRONMENT name its first two segments and a served config has MCP tools' };
  }
  return undefined;
}
