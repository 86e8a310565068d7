// A pass over an untrusted .xlsx/.ods (a zip) before SheetJS sees it. SheetJS inflates every
// entry completely, allocating the size the header declares, so a zip bomb or a lying header
// would take the process down; here each entry is inflated by zlib with maxOutputLength against
// a total budget, the entries SheetJS will walk (central directory order) are the ones counted.
// It also returns the XML entries, so astral characters written as character references
// (&#x1F600;), which SheetJS decodes wrongly, can be rewritten as literal text.
import { crc32, inflateRawSync } from 'node:zlib';
import { TransformError } from '../types.ts';

export interface ZipEntry { name: string; data: Buffer }

const MAX_ENTRIES = 10_000;
const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

export function inflateZip(buf: Buffer, budget: number, who: string): ZipEntry[] {
  const bad = (why: string): never => { throw new TransformError(`${who}: the file is not a readable zip (${why})`); };
  // The same end record SheetJS will use: the last signature in the file.
  const eocd = buf.lastIndexOf(EOCD);
  if (eocd < 0 || eocd + 22 > buf.length) bad('no end of central directory');
  const count = buf.readUInt16LE(eocd + 8);
  let at = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) bad('ZIP64 is not supported');
  if (count > MAX_ENTRIES) bad(`more than ${MAX_ENTRIES} entries`);
  let left = budget;
  const out: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) bad('broken central directory');
    const method = buf.readUInt16LE(at + 10);
    const declared = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('latin1', at + 46, at + 46 + nameLen);
    if (hasZip64(buf, at + 46 + nameLen, extraLen)) bad('ZIP64 is not supported');
    at += 46 + nameLen + extraLen + buf.readUInt16LE(at + 32);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) bad('broken local header');
    const lNameLen = buf.readUInt16LE(local + 26);
    const lExtraLen = buf.readUInt16LE(local + 28);
    if (hasZip64(buf, local + 30 + lNameLen, lExtraLen)) bad('ZIP64 is not supported');
    const start = local + 30 + lNameLen + lExtraLen;
    const size = Math.max(declared, buf.readUInt32LE(local + 22)); // SheetJS allocates what the header says
    if (size > left) throw new TransformError(`${who}: the file expands past ${budget} bytes; refused`);
    let data: Buffer;
    if (method === 0) data = buf.subarray(start, start + buf.readUInt32LE(local + 18));
    else if (method === 8) {
      try {
        data = inflateRawSync(buf.subarray(start), { maxOutputLength: Math.max(1, left) });
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new TransformError(`${who}: the file expands past ${budget} bytes; refused`);
        return bad(`entry ${JSON.stringify(name)} does not inflate`);
      }
    } else return bad(`compression method ${method}`);
    left -= Math.max(data.length, size);
    if (left < 0) throw new TransformError(`${who}: the file expands past ${budget} bytes; refused`);
    out.push({ name, data });
  }
  return out;
}

function hasZip64(buf: Buffer, from: number, len: number): boolean {
  for (let i = from; i + 4 <= from + len && i + 4 <= buf.length; i += 4 + buf.readUInt16LE(i + 2)) if (buf.readUInt16LE(i) === 0x0001) return true;
  return false;
}

const NCR = /&#(?:x([0-9a-fA-F]+)|([0-9]+));/g;
const astral = (hex: string | undefined, dec: string | undefined) => parseInt(hex ?? dec!, hex ? 16 : 10);

/** Rewrites astral character references in XML entries; null when there are none (the usual case). */
export function fixAstralRefs(entries: ZipEntry[]): ZipEntry[] | null {
  let changed = false;
  const next = entries.map((e) => {
    if (!/\.(xml|rels)$/i.test(e.name)) return e;
    const raw = e.data.toString('latin1'); // references are ASCII: a cheap look before decoding
    if (![...raw.matchAll(NCR)].some((m) => astral(m[1], m[2]) > 0xffff)) return e;
    changed = true;
    const text = e.data.toString('utf8').replace(NCR, (m, h, d) => {
      const cp = astral(h, d);
      return cp > 0xffff && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    });
    return { name: e.name, data: Buffer.from(text) };
  });
  return changed ? next : null;
}

/** A zip of stored (uncompressed) entries: enough for SheetJS to read the rewritten parts. */
export function storedZip(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const dir: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const n = Buffer.from(name, 'latin1');
    const crc = crc32(data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0); head.writeUInt16LE(20, 4);
    head.writeUInt32LE(crc, 14); head.writeUInt32LE(data.length, 18); head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(n.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0); cd.writeUInt16LE(20, 4); cd.writeUInt16LE(20, 6);
    cd.writeUInt32LE(crc, 16); cd.writeUInt32LE(data.length, 20); cd.writeUInt32LE(data.length, 24);
    cd.writeUInt16LE(n.length, 28); cd.writeUInt32LE(offset, 42);
    parts.push(head, n, data);
    dir.push(cd, n);
    offset += 30 + n.length + data.length;
  }
  const size = dir.reduce((a, b) => a + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...dir, end]);
}
