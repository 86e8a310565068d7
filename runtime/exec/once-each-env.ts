// A lookup's environment: each variable, secret or environment value is read once per lookup and
// reused by its items. The process environment is read through a native interceptor (~0.5 µs a
// read) and `a|var::X|` in an item's URL read it once per item; within one lookup the values
// cannot differ in any way that matters (the service reads its environment as fixed: redaction
// scans it once per process, runtime/environment.ts).
import type { Environment } from '../scope.ts';

export function onceEach(env: Environment): Environment {
  const out: Environment = {
    secret: remembered((n) => env.secret(n)),
    variable: remembered((n) => env.variable(n)),
    env: remembered((n) => env.env(n)),
    uuid: () => env.uuid(),
  };
  if (env.sensitiveValues) out.sensitiveValues = () => env.sensitiveValues!();
  return out;
}

function remembered(get: (name: string) => string | undefined): (name: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (name) => {
    if (known.has(name)) return known.get(name);
    const v = get(name);
    known.set(name, v);
    return v;
  };
}
