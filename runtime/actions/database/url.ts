// Connection strings: which driver a scheme selects, and how one is shown in messages (no password).
import { DbError } from './types.ts';

export function dialectOf(url: string): 'postgres' | 'mysql' {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme === 'mysql' || scheme === 'mariadb') return 'mysql';
  throw new DbError(`unsupported connection string scheme ${scheme ? `"${scheme}:"` : '(none)'}: use postgres://, postgresql://, mysql:// or mariadb://`, 'connect');
}

/** host:port/database, for error messages: never the user or the password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
  } catch {
    return '(unparsable connection string)';
  }
}

/** The destination a driver dialled (`host:port`, or a socket path) and the connection string's
 *  database, for messages; before any dial, the connection string's own host. */
export function describeDialled(url: string, dialled: string | undefined): string {
  if (dialled === undefined) return describeUrl(url);
  try {
    const path = new URL(url).pathname;
    return `${dialled}${path && path !== '/' ? path : ''}`;
  } catch {
    return dialled;
  }
}
