// The client's address: the socket peer, or, when the peer is a trusted proxy
// (SERVICE__TRUSTED_PROXIES), the nearest X-Forwarded-For entry that is not itself a trusted proxy.
import { hasAddress, normalize, type IpList } from './ip-list.ts';

export function clientIp(peer: string | undefined, forwarded: string | string[] | undefined, trusted: IpList): string {
  let ip = normalize(peer ?? '')?.address ?? '';
  if (!ip || trusted.empty || !hasAddress(trusted, ip)) return ip;
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  // Walk right to left: entries added by our own proxies are trusted; the first other one is the client.
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]!)?.address;
    if (!hop) return ip; // garbage: stop at the last address we can vouch for
    ip = hop;
    if (!hasAddress(trusted, hop)) return hop;
  }
  return ip;
}
