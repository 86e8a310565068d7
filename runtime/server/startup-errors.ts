// Startup failures a user can fix, as one line with the fix instead of a stack trace: the port is
// taken, Postgres cannot be reached, a setting is malformed.
import { Refused } from '../refused.ts';
import { BrokerPortTaken } from '../mqtt/port-taken.ts';
import { StartupError } from '../startup-error.ts';

/** A setting or environment problem the user fixes; printed as its message alone. */
export { StartupError };

export function startupMessage(e: unknown, o: { port: number; host: string }): string | undefined {
  const err = e as NodeJS.ErrnoException & { address?: string };
  if (e instanceof StartupError) return e.message;
  // A destination the outbound dialer refuses at start (the external MQTT broker): the refusal names it.
  if (e instanceof Refused) return e.message;
  if (e instanceof BrokerPortTaken) return e.message;
  if (err?.code === 'EADDRINUSE') return `port ${o.port} on ${o.host} is already in use: stop the other process or pick another port with --port (0 picks a free one)`;
  if (err?.code === 'EACCES' && err.syscall === 'listen') return `no permission to listen on ${o.host}:${o.port}: use a port above 1023`;
  if (err?.code === 'EADDRNOTAVAIL') return `cannot listen on ${o.host}: it is not an address of this machine (use --host 127.0.0.1 or 0.0.0.0)`;
  if (err?.code === 'ECONNREFUSED' || err?.code === 'ENOTFOUND' || err?.code === 'ETIMEDOUT' || err?.code === '28P01' || err?.code === '3D000') {
    return `cannot open the store at SERVICE__DATABASE_URL (${err.code}: ${err.message.split('\n')[0]}): check that Postgres is running and the URL's host, port, user and database are right`;
  }
  return undefined;
}
