// The HTTP routes a config serves, as the server registers them (runtime/server/app.ts): methods
// from `method` (default GET and POST), the route (default /<interface name>). Keys compare routes
// the way the router does: parameter names and a trailing slash do not tell two routes apart.
import { isObj, type Obj } from './walk.ts';

/** Methods the server's router accepts. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY'];

export interface RouteSite {
  iface: string;
  methods: string[];
  route: string;
}

export function routeSites(config: unknown): RouteSite[] {
  if (!isObj(config) || !isObj(config.interfaces)) return [];
  return Object.entries(config.interfaces).flatMap(([name, i]) => {
    if (!isObj(i) || i.output === 'cli') return [];
    const raw = typeof i.route === 'string' && i.route !== '' ? i.route : name;
    const route = raw.startsWith('/') ? raw : `/${raw}`;
    return [{ iface: name, methods: methodsOf(i), route }];
  });
}

export function methodsOf(i: Obj): string[] {
  return typeof i.method === 'string' ? i.method.toUpperCase().split(',').map((m) => m.trim()) : ['GET', 'POST'];
}

/** `GET /orders/:` for `GET /orders/:id/` — what the router would see as the same route. */
export const routeKey = (method: string, route: string): string =>
  `${method} ${route.replace(/\/+$/, '') || '/'}`.replace(/:[^/]+/g, ':');
