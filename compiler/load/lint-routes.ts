// Route checks the server would otherwise fail on at start: a method it does not know (`GE T`),
// the same method and route twice, and routes under /_ap/, which are the server's own.
import { HTTP_METHODS, routeKey, routeSites } from './routes.ts';
import type { Report } from './report.ts';

export function lintRoutes(config: unknown, report: Report): void {
  const seen = new Map<string, string>();
  for (const site of routeSites(config)) {
    const at = ['interfaces', site.iface];
    for (const m of site.methods) {
      if (!HTTP_METHODS.includes(m)) {
        report('error', [...at, 'method'], `method "${m}" of interface "${site.iface}" is not an HTTP method`, (HTTP_METHODS.includes(m.replace(/\s+/g, '')) ? `did you mean "${m.replace(/\s+/g, '')}"?` : undefined) ?? `use one of ${HTTP_METHODS.join(', ')} (several separated by commas)`, 'value');
        continue;
      }
      const key = routeKey(m, site.route);
      const other = seen.get(key);
      if (other !== undefined) report('error', [...at, 'route'], `${m} ${site.route} of interface "${site.iface}" is already served by interface "${other}"`, 'give one of them another route or method', 'value');
      else seen.set(key, site.iface);
    }
    if (/^\/_ap(\/|$)/.test(site.route)) {
      report('error', [...at, 'route'], `route ${site.route} of interface "${site.iface}" is under /_ap/, which the server keeps for its own endpoints`, 'choose a route outside /_ap/', 'value');
    }
  }
}
