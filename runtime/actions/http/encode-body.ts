// Request body encoding: a string is sent as is; other values are encoded per data_type (JSON by default).
import { stringify as csvStringify } from 'csv-stringify/sync';
import { XMLBuilder } from 'fast-xml-parser';
import { CONTENT_TYPES, type DataType } from './data-type.ts';
import { fromBase64 } from '../../transforms/util/encodings.ts';

export interface EncodedBody { body?: Buffer; contentType?: string }

// Mirrors the decoder's mapping so a decoded document re-encodes to the same XML: `@_name` keys are attributes.
const xmlBuilder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', textNodeName: '#text' });

export function encodeBody(config: { body?: unknown; base64_bytes?: unknown }, dataType: DataType | undefined): EncodedBody {
  const { body, base64_bytes: b64 } = config;
  if (b64 !== undefined && b64 !== null) {
    if (body !== undefined && body !== null) throw new Error('set either body or base64_bytes, not both');
    return { body: decodeBase64(b64), contentType: 'application/octet-stream' };
  }
  if (body === undefined || body === null) return {};
  const type = dataType ?? (typeof body === 'string' ? 'text' : 'json');
  if (typeof body === 'string') return { body: Buffer.from(body, 'utf8'), contentType: CONTENT_TYPES[type] };
  return { body: Buffer.from(encodeValue(body, type), 'utf8'), contentType: CONTENT_TYPES[type] };
}

function encodeValue(v: unknown, type: DataType): string {
  switch (type) {
    case 'json':
    case 'text':
      return JSON.stringify(v);
    case 'ndjson':
      return (Array.isArray(v) ? v : [v]).map((x) => JSON.stringify(x) + '\n').join('');
    case 'csv': {
      if (!Array.isArray(v)) throw new Error('a csv body must be an array of rows (objects or arrays)');
      if (v.every((r) => Array.isArray(r))) return csvStringify(v);
      // Header row: the union of row keys in first-seen order, so sparse rows still line up.
      const columns = [...new Set(v.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])))];
      return csvStringify(v, { header: true, columns });
    }
    case 'xml':
      if (typeof v !== 'object' || Array.isArray(v)) throw new Error('an xml body must be a mapping with one root element');
      return xmlBuilder.build(v);
  }
}

/** The runtime's one strict base64 decoder (transforms/util/encodings.ts), as an action error. */
export function decodeBase64(v: unknown, field = 'base64_bytes'): Buffer {
  const bytes = typeof v === 'string' ? fromBase64(v) : undefined;
  if (!bytes) throw new Error(`${field} is not valid base64`);
  return bytes;
}
