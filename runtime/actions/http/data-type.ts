// The HttpRequest `data_type` values and content-type inference.
export type DataType = 'json' | 'text' | 'csv' | 'xml' | 'ndjson';

// Newline-delimited JSON is spelled `ndjson`; `jsonl` and `json_lines` are accepted aliases.
const ALIASES: Record<string, DataType> = {
  json: 'json', text: 'text', csv: 'csv', xml: 'xml',
  ndjson: 'ndjson', jsonl: 'ndjson', json_lines: 'ndjson',
};

/** Normalise a configured data_type; undefined when unset, throws on an unknown value. */
export function normalizeDataType(v: unknown): DataType | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const t = typeof v === 'string' ? ALIASES[v.trim().toLowerCase().replace(/-/g, '_')] : undefined;
  if (!t) throw new Error(`unknown data_type ${JSON.stringify(v)} (expected json, text, csv, xml or ndjson)`);
  return t;
}

/** The media type without parameters, lowercased: `Application/JSON; charset=x` → `application/json`. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** Infer how to decode a response from its content-type; anything unrecognised is text. */
export function inferDataType(contentType: string | undefined): DataType {
  // The usual headers exactly: no strings made (this runs for every response, every lookup item).
  if (contentType === 'application/json' || contentType === 'application/json; charset=utf-8') return 'json';
  const mt = mediaType(contentType);
  if (mt === 'application/json') return 'json'; // the common case first: no pattern to run
  if (/^application\/(x-)?(ndjson|jsonl|json-?lines|jsonlines)$/.test(mt)) return 'ndjson';
  if (mt.endsWith('+json') || mt === 'text/json') return 'json';
  if (mt === 'text/csv' || mt === 'application/csv') return 'csv';
  if (mt === 'application/xml' || mt === 'text/xml' || mt.endsWith('+xml')) return 'xml';
  return 'text';
}

/** Default request content-type for a body encoded as `t`. */
export const CONTENT_TYPES: Record<DataType, string> = {
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  text: 'text/plain; charset=utf-8',
};
