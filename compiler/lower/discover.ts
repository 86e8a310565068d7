// A `discover` action → its kind config: checked here what can be known before a run (a backend is
// set, a literal port or scheme is usable), so a mistake is a `check` error at its position rather
// than a failed run. Markers are left to the runtime, which checks the interpolated values again.
import type { Node } from '../../runtime/ir.ts';
import { isUrlScheme, portNumber, PORT_RULE } from '../../runtime/values/port.ts';
import { LowerError, type Path } from './error.ts';
import { lowerValue } from './values.ts';

const BACKENDS = ['dns', 'kubernetes', 'docker', 'static'];
const literal = (v: unknown): boolean => typeof v === 'number' || (typeof v === 'string' && !v.includes('a|'));

export function discoverConfig(v: unknown, at: Path): Node {
  const o = (v ?? {}) as Record<string, unknown>;
  const where = [...at, 'discover'];
  if (!BACKENDS.some((b) => o[b] !== undefined && o[b] !== null)) {
    throw new LowerError('discover needs a backend', where, `set one of ${BACKENDS.join(', ')} (each one set adds its members)`);
  }
  if (literal(o.port) && portNumber(o.port) === undefined) {
    throw new LowerError(`port ${JSON.stringify(o.port)} is not a port`, [...where, 'port'], `${PORT_RULE}, or a marker resolving to one`);
  }
  if (literal(o.scheme) && !isUrlScheme(o.scheme)) {
    throw new LowerError(`scheme ${JSON.stringify(o.scheme)} is not a URL scheme`, [...where, 'scheme'], 'such as http, https or grpc, without "://"');
  }
  return lowerValue(v);
}
