// Content type of an uploaded part from its file name. A small table of what APIs commonly receive
// rather than a dependency: an unknown extension falls back to application/octet-stream, which
// servers accept for any upload.
const TYPES: Record<string, string> = {
  txt: 'text/plain', csv: 'text/csv', tsv: 'text/tab-separated-values', html: 'text/html', htm: 'text/html',
  md: 'text/markdown', css: 'text/css', js: 'text/javascript', xml: 'application/xml',
  json: 'application/json', ndjson: 'application/x-ndjson', jsonl: 'application/x-ndjson',
  yaml: 'application/yaml', yml: 'application/yaml', pdf: 'application/pdf', rtf: 'application/rtf',
  zip: 'application/zip', gz: 'application/gzip', tgz: 'application/gzip', tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
  svg: 'image/svg+xml', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', ico: 'image/vnd.microsoft.icon',
  mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', m4a: 'audio/mp4',
  mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime',
  doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', ods: 'application/vnd.oasis.opendocument.spreadsheet',
};

/** The type for `filename`'s extension (case-insensitive), else `fallback`. */
export function mimeFromName(filename: string | undefined, fallback = 'application/octet-stream'): string {
  const ext = /\.([^./\\]+)$/.exec(filename ?? '')?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) || fallback;
}
