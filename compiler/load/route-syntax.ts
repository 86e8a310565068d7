// A route's syntax as the server's router (find-my-way, through fastify) reads it, checked at `check`
// so that a config that passes starts: the router itself is asked (a route it refuses is an error
// with its words), and what it would accept but serve wrongly is refused or warned about here.
import { createRequire } from 'node:module';

interface Router { on(method: string, path: string, handler: () => void): void }
type RouterFactory = (o: { ignoreTrailingSlash: boolean }) => Router;

let factory: RouterFactory | undefined;
/** find-my-way as fastify resolves it (the same version the server runs). */
function router(): Router {
  if (!factory) {
    const require = createRequire(import.meta.url);
    factory = createRequire(require.resolve('fastify'))('find-my-way') as RouterFactory;
  }
  return factory({ ignoreTrailingSlash: true });
}

export interface RouteProblem { severity: 'error' | 'warning'; message: string; hint: string }

/** Problems of one route (already starting with `/`). */
export function routeSyntaxProblems(route: string): RouteProblem[] {
  const out: RouteProblem[] = [];
  // `::` is a literal colon; a parameter is `:name`, optionally followed by `(regex)`.
  const params = [...route.replace(/::/g, '').matchAll(/:([^/:(\-.]*)(\()?/g)];
  if (params.some((p) => p[2])) {
    out.push({
      severity: 'error',
      message: `route ${route} has a regular expression in a parameter: the router runs it on the backtracking engine, where one request can hold the process`,
      hint: 'write the parameter plainly (`:id`) and check it with `params: { id: { validate: { regex: "..." } } }`, which runs on the linear-time engine',
    });
    return out;
  }
  if (params.some((p) => p[1] === '')) out.push({ severity: 'error', message: `route ${route} has a parameter without a name`, hint: 'name it (`:id`), or write `::` for a literal colon' });
  const names = params.map((p) => p[1]!).filter(Boolean);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) out.push({ severity: 'error', message: `route ${route} names the parameter "${twice}" twice: a request would keep only one of its values`, hint: 'give each parameter its own name' });
  if (/a\|[^|]*::[^|]*\|/.test(route)) {
    out.push({ severity: 'warning', message: `route ${route} holds a marker: routes are not interpolated, so it matches only that literal text (never a request)`, hint: 'write a parameter (`/x/:id`) and read it with a|params::id|' });
  }
  if (/\s/.test(route)) out.push({ severity: 'warning', message: `route ${route} holds white space, which no request path can`, hint: 'remove the white space (a request writes it as %20)' });
  if (out.some((p) => p.severity === 'error')) return out;
  try {
    router().on('GET', route, () => {});
  } catch (e) {
    out.push({ severity: 'error', message: `route ${route} is refused by the router: ${(e as Error).message}`, hint: 'routes are static segments, `:name` parameters and one `*` at the very end' });
  }
  return out;
}
