// The one item shape every discover backend returns. Fields a backend cannot know are left out, and
// the keys always come in this order so both execution paths (and the cache) give identical JSON.
import { isIP } from 'node:net';

export interface Member {
  name: string;
  address: string;
  port?: number;
  url?: string;
  source: 'dns' | 'kubernetes' | 'docker' | 'static';
  ready?: boolean;
  namespace?: string;
  node?: string;
  image?: string;
  labels?: Record<string, string>;
}

/** What a backend found, before the URL is built. */
export type Found = Omit<Member, 'url'>;

/** `address` as it stands in a URL authority: IPv6 literals bracketed. */
export const hostInUrl = (address: string): string => (isIP(address) === 6 ? `[${address}]` : address);

export function member(f: Found, scheme: string): Member {
  const m: Member = {
    name: f.name,
    address: f.address,
    ...(f.port !== undefined ? { port: f.port } : {}),
    url: `${scheme}://${hostInUrl(f.address)}${f.port !== undefined ? `:${f.port}` : ''}`,
    source: f.source,
  };
  if (f.ready !== undefined) m.ready = f.ready;
  if (f.namespace !== undefined) m.namespace = f.namespace;
  if (f.node !== undefined) m.node = f.node;
  if (f.image !== undefined) m.image = f.image;
  if (f.labels !== undefined) m.labels = f.labels;
  return m;
}
