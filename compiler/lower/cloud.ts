// aws and google blocks: exactly one operation block, refused at load with its position (the schema
// lists both as optional); the block itself stays data, interpolated per run.
import type { Node } from '../../runtime/ir.ts';
import { LowerError, type Path } from './error.ts';
import { lowerValue } from './values.ts';

const OPERATIONS = ['get_signed_upload_url', 'get_signed_download_url'];

export function cloudConfig(kind: 'aws' | 'google', block: Record<string, unknown>, at: Path): Node {
  const set = OPERATIONS.filter((o) => block[o] !== undefined);
  if (set.length !== 1)
    throw new LowerError(`${kind} needs exactly one operation block, found ${set.length ? set.join(' and ') : 'none'}`, [...at, kind, ...(set.length > 1 ? [set[1]!] : [])], `set one of ${OPERATIONS.join(', ')}`);
  return lowerValue(block);
}
