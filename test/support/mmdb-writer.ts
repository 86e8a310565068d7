// A tiny MaxMind DB (.mmdb, format 2.0) writer for tests: an IPv6 tree (IPv4 under ::/96) with
// record size 24 and maps of strings and numbers. No writer is published on npm for this; the reader
// under test (`maxmind`) is the real one, so a wrong file here fails loudly, not silently.
import { isIPv4 } from 'node:net';

type Value = string | number | { [k: string]: Value };

function head(type: number, size: number): Buffer {
  const ext = type > 7;
  const parts: number[] = [];
  const t = ext ? 0 : type;
  if (size < 29) parts.push((t << 5) | size);
  else if (size < 285) parts.push((t << 5) | 29, size - 29);
  else parts.push((t << 5) | 30, ((size - 285) >> 8) & 0xff, (size - 285) & 0xff);
  if (ext) parts.splice(1, 0, type - 7);
  return Buffer.from(parts);
}

function uint(n: number): Buffer {
  const bytes: number[] = [];
  for (let x = n; x > 0; x = Math.floor(x / 256)) bytes.unshift(x % 256);
  return Buffer.from(bytes);
}

export function encode(v: Value): Buffer {
  if (typeof v === 'string') { const b = Buffer.from(v, 'utf8'); return Buffer.concat([head(2, b.length), b]); }
  if (typeof v === 'number') { const b = uint(v); return Buffer.concat([head(v < 65536 ? 5 : 6, b.length), b]); }
  const entries = Object.entries(v);
  return Buffer.concat([head(7, entries.length), ...entries.flatMap(([k, x]) => [encode(k), encode(x)])]);
}

function bits(cidr: string): number[] {
  const [ip, len] = cidr.split('/');
  let bytes: number[];
  if (isIPv4(ip!)) bytes = [...new Array(12).fill(0), ...ip!.split('.').map(Number)];
  else throw new Error('test writer: IPv4 networks only');
  const prefix = 96 + Number(len ?? 32);
  return Array.from({ length: prefix }, (_, i) => (bytes[i >> 3]! >> (7 - (i & 7))) & 1);
}

interface TrieNode { c: [TrieNode | number | null, TrieNode | number | null] }

/** networks: IPv4 CIDR → record (e.g. { country: { iso_code: 'DE' }, autonomous_system_number: 64500 }). */
export function writeMmdb(networks: Record<string, Value>, databaseType = 'Test-Country-ASN'): Buffer {
  const data: Buffer[] = [];
  let offset = 0;
  const root: TrieNode = { c: [null, null] };
  for (const [cidr, value] of Object.entries(networks)) {
    const enc = encode(value);
    const at = offset;
    data.push(enc);
    offset += enc.length;
    const path = bits(cidr);
    let n = root;
    path.forEach((b, i) => {
      if (i === path.length - 1) { n.c[b] = -1 - at; return; } // leaf: data offset, encoded negative
      const next = n.c[b];
      if (typeof next !== 'object' || next === null) n.c[b] = { c: [null, null] };
      n = n.c[b] as TrieNode;
    });
  }
  const nodes: TrieNode[] = [];
  const number = (n: TrieNode) => { nodes.push(n); for (const x of n.c) if (x && typeof x === 'object') number(x); };
  number(root);
  const index = new Map(nodes.map((n, i) => [n, i]));
  const count = nodes.length;
  const tree = Buffer.alloc(count * 6);
  nodes.forEach((n, i) => n.c.forEach((x, side) => {
    const rec = x === null ? count : typeof x === 'number' ? count + 16 + (-1 - x) : index.get(x)!;
    tree.writeUIntBE(rec, i * 6 + side * 3, 3);
  }));
  const meta = Buffer.concat([
    head(7, 9),
    encode('node_count'), head(6, uint(count).length), uint(count),
    encode('record_size'), encode(24),
    encode('ip_version'), encode(6),
    encode('database_type'), encode(databaseType),
    encode('languages'), head(11, 1), encode('en'),
    encode('binary_format_major_version'), encode(2),
    encode('binary_format_minor_version'), head(5, 0),
    encode('build_epoch'), head(9, 4), uint(1_700_000_000),
    encode('description'), encode({ en: 'pipewright test database' }),
  ]);
  return Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1'), meta]);
}
