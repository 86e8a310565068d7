// multipart/form-data bodies (spec: MultipartPart), encoded by undici's FormData so boundaries,
// escaping of names and filenames and the closing delimiter follow the HTML/fetch algorithm.
//
// A text part with neither `filename` nor `mime` is a plain form field (no Content-Type, like a
// browser form; the FormData algorithm turns bare LF / CR into CRLF). A text part with either is sent
// as a Blob: its bytes are exact and it carries the Content-Type (guessed from the filename, else
// text/plain). Binary parts (`b64`, `file_path`) always carry a Content-Type: `mime`, else guessed
// from the filename extension, else application/octet-stream. A `file_path` part's filename defaults
// to the file's base name. The whole body is buffered (Digest auth-int and retries need the bytes).
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FormData } from 'undici';
import { decodeBase64 } from './encode-body.ts';
import { legacyParts } from './multipart-legacy.ts';
import { mimeFromName } from './mime.ts';
import { managedMode } from '../../values/managed-mode.ts';

export interface PartSpec { part: Record<string, unknown>; field: string }


/** undefined when no multipart setting is present. */
export async function encodeMultipart(config: Record<string, unknown>): Promise<{ body: Buffer; contentType: string } | undefined> {
  const { multipart } = config;
  if (isSet(multipart) && !Array.isArray(multipart)) throw new Error('http.multipart must be an array of parts');
  const specs: PartSpec[] = [
    ...((multipart as unknown[] | undefined) ?? []).map((p, i) => ({ part: asObject(p, `http.multipart[${i}]`), field: `http.multipart[${i}]` })),
    ...legacyParts(config),
  ];
  if (!isSet(multipart) && specs.length === 0) return undefined;
  // Loaded on first use: undici's fetch layer is large, and most configs never send multipart.
  const { FormData, Response } = await import('undici');
  const fd = new FormData();
  for (const s of specs) await addPart(fd, s);
  const res = new Response(fd);
  return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}

async function addPart(fd: FormData, { part: p, field }: PartSpec): Promise<void> {
  if (typeof p.name !== 'string' || p.name === '') throw new Error(`${field}.name is required`);
  const sources = (['value', 'b64', 'file_path'] as const).filter((k) => isSet(p[k]));
  if (sources.length !== 1) throw new Error(`${field} needs exactly one of value, b64, file_path (got ${sources.join(', ') || 'none'})`);
  let filename = isSet(p.filename) ? String(p.filename) : undefined;
  const mime = isSet(p.mime) ? checkedMime(p.mime, field) : undefined;
  let bytes: Buffer;
  if (sources[0] === 'value') {
    const text = typeof p.value === 'string' ? p.value : JSON.stringify(p.value);
    if (filename === undefined && mime === undefined) return fd.append(p.name, text);
    bytes = Buffer.from(text, 'utf8');
    return fd.append(p.name, new File([bytes], filename ?? '', { type: mime ?? mimeFromName(filename, 'text/plain; charset=utf-8') }));
  }
  if (sources[0] === 'b64') bytes = decodeBase64(p.b64, `${field}.b64`);
  else {
    if (managedMode(process.env.SERVICE__MANAGED_MODE)) throw new Error(`${field}.file_path is not allowed in managed mode; send the content as b64`);
    const path = String(p.file_path);
    try { bytes = await readFile(path); } catch (e) { throw new Error(`${field}.file_path: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
    filename ??= basename(path);
  }
  // An empty file name makes undici omit `filename=` (the part stays a field with a type).
  fd.append(p.name, new File([bytes], filename ?? '', { type: mime ?? mimeFromName(filename) }));
}

// Blob silently drops a type with non-printable characters (undici would then send octet-stream).
function checkedMime(v: unknown, field: string): string {
  const s = String(v).trim();
  if (!/^[\x21-\x7e]+\/[\x20-\x7e]+$/.test(s)) throw new Error(`${field}: invalid content type ${JSON.stringify(s)}`);
  return s;
}

function asObject(v: unknown, field: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${field} must be a mapping`);
  return v as Record<string, unknown>;
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}
