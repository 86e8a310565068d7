// The deprecated multipart_form (MultipartText) and multipart_files (MultipartFile) shapes, mapped
// onto MultipartPart so both go through one encoder (and one managed-mode check). Appended after
// `multipart` parts, text parts before files, in config order.
import type { PartSpec } from './multipart.ts';

export function legacyParts(config: Record<string, unknown>): PartSpec[] {
  const texts = list(config.multipart_form, 'http.multipart_form').map(({ v, field }) => {
    if (!isSet(v.key)) throw new Error(`${field}.key is required`);
    if (!isSet(v.value)) throw new Error(`${field}.value is required`);
    return { field, part: { name: v.key, value: v.value, mime: v.mime_str } };
  });
  const files = list(config.multipart_files, 'http.multipart_files').map(({ v, field }) => {
    if (!isSet(v.file_name)) throw new Error(`${field}.file_name is required`);
    // file_path is nominally required, but when b64 is given the bytes come from it and the disk is
    // never read (so such a part also works in managed mode).
    const source = isSet(v.b64) ? { b64: v.b64 } : { file_path: v.file_path };
    if (!isSet(v.b64) && !isSet(v.file_path)) throw new Error(`${field} needs file_path or b64`);
    // part_name defaults to `file`, the conventional upload field name (curl -F file=@…).
    return { field, part: { name: v.part_name ?? 'file', filename: v.file_name, mime: v.mime_str, ...source } };
  });
  return [...texts, ...files];
}

function list(v: unknown, field: string): { v: Record<string, unknown>; field: string }[] {
  if (!isSet(v)) return [];
  if (!Array.isArray(v)) throw new Error(`${field} must be an array`);
  return v.map((x, i) => {
    if (!x || typeof x !== 'object' || Array.isArray(x)) throw new Error(`${field}[${i}] must be a mapping`);
    return { v: x as Record<string, unknown>, field: `${field}[${i}]` };
  });
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}
