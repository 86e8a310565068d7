// Country and autonomous system of a client address, from MaxMind-format databases the operator
// supplies (SERVICE__GEOIP_DB: a Country/City database; SERVICE__ASN_DB: an ASN database; one file
// holding both also works). Read with the `maxmind` package.
import maxmind, { type Reader, type Response } from 'maxmind';

interface Record { country?: { iso_code?: string }; registered_country?: { iso_code?: string }; autonomous_system_number?: number }

export interface Geo {
  country(ip: string): string | undefined;
  asn(ip: string): number | undefined;
  hasCountries: boolean;
  hasAsns: boolean;
}

const NONE: Geo = { country: () => undefined, asn: () => undefined, hasCountries: false, hasAsns: false };

export async function openGeo(env: { SERVICE__GEOIP_DB?: string; SERVICE__ASN_DB?: string }): Promise<Geo> {
  if (!env.SERVICE__GEOIP_DB && !env.SERVICE__ASN_DB) return NONE;
  const open = async (path: string | undefined) => (path ? await maxmind.open<Record & Response>(path) : undefined);
  const geo = await open(env.SERVICE__GEOIP_DB);
  const asn = env.SERVICE__ASN_DB ? await open(env.SERVICE__ASN_DB) : geo;
  const get = (r: Reader<Record & Response> | undefined, ip: string): Record | null => {
    try { return r?.get(ip) ?? null; } catch { return null; } // an IPv6 client on an IPv4-only database
  };
  return {
    country: (ip) => { const r = get(geo, ip); return r?.country?.iso_code ?? r?.registered_country?.iso_code; },
    asn: (ip) => get(asn, ip)?.autonomous_system_number,
    hasCountries: !!geo,
    hasAsns: !!asn,
  };
}

export const noGeo = NONE;
