// Response decoding by declared data_type, else inferred from content-type.
import { parse as csvParse } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { inferDataType, type DataType } from './data-type.ts';
import { parseJsonBounded } from '../../values/json-depth.ts';

/*
 * XML → JS mapping (fast-xml-parser): each element becomes a key of its parent; repeated sibling
 * elements become an array; attributes are `@_name` keys; an element with attributes or children
 * keeps its text under `#text`; an empty element is ''. Values stay strings (no number guessing:
 * ids like "0012" survive), as with CSV. The declaration and processing instructions are dropped;
 * DOCTYPE entities expand only within the library's default bounds (no external entities).
 */
const xmlParser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '@_', textNodeName: '#text',
  parseTagValue: false, parseAttributeValue: false, ignorePiTags: true,
  // Stryker disable next-line BooleanLiteral: equivalent, ignorePiTags drops the declaration too
  ignoreDeclaration: true,
});

export interface Decoded { data: unknown; error?: string }

/**
 * 204, 304 and empty bodies are null. A declared type that fails to parse is an error (the text is
 * kept as data); an inferred type that fails falls back to text, since the upstream only labelled it.
 */
export function decodeBody(bytes: Buffer, o: { status: number; contentType?: string; declared?: DataType; lenient?: boolean }): Decoded {
  // Stryker disable next-line ConditionalExpression: equivalent, a 204 or 304 response has no body (HTTP: the client reads none)
  if (o.status === 204 || o.status === 304 || bytes.length === 0) return { data: null };
  const text = decodeText(bytes, o.contentType);
  const type = o.declared ?? inferDataType(o.contentType);
  try {
    return { data: parseAs(type, text) };
  } catch (e) {
    if (!o.declared || o.lenient) return { data: text };
    return { data: text, error: `response body is not valid ${type}: ${(e as Error).message}` };
  }
}

function parseAs(type: DataType, text: string): unknown {
  switch (type) {
    case 'text': return text;
    case 'json':
      // As for request bodies: later walks recurse, so nesting past the bound would overflow the stack.
      return parseJsonBounded(text);
    case 'ndjson': return parseNdjson(text);
    // Rows keyed by the header line; all values strings; a row with a different column count is an error.
    case 'csv': return csvParse(text, {
      columns: true, skip_empty_lines: true,
      // Stryker disable next-line BooleanLiteral: equivalent, decodeText's TextDecoder drops a leading BOM first
      bom: true,
    });
    case 'xml': {
      const valid = XMLValidator.validate(text);
      if (valid !== true) throw new Error(`${valid.err.msg} (line ${valid.err.line})`);
      return xmlParser.parse(text);
    }
  }
}

function parseNdjson(text: string): unknown[] {
  const out: unknown[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return; // blank lines (and the trailing newline) separate nothing
    try { out.push(JSON.parse(line)); } catch (e) { throw new Error(`line ${i + 1}: ${(e as Error).message}`); }
  });
  return out;
}

// Stryker disable next-line StringLiteral: equivalent, node's TextDecoder reads an empty label as UTF-8 too
const utf8 = new TextDecoder('utf-8');

/** Honour a content-type charset the runtime knows; otherwise UTF-8 (a leading BOM is dropped). */
function decodeText(bytes: Buffer, contentType: string | undefined): string {
  // Stryker disable next-line StringLiteral: equivalent, any text without "charset=" gives no charset
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  // Stryker disable next-line ConditionalExpression,Regex: equivalent, a UTF-8 label the test misses decodes the same through TextDecoder(charset) (this line only saves making one)
  if (!charset || /^utf-?8$/i.test(charset)) return utf8.decode(bytes);
  try { return new TextDecoder(charset).decode(bytes); } catch { return utf8.decode(bytes); }
}
