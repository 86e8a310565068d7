// A marker's value written into a URL or a JSON template, encoded for its position (the position is
// found at compile time: compiler/lower/positions.ts). Request values never leave their slot
// (one URL segment, one JSON string or value, one MQTT topic level).
import type { Esc } from '../ir.ts';
import { Refused } from '../refused.ts';
import { text } from './text.ts';
import { jsonString } from './json-string.ts';
import { urlBase } from './url-base.ts';
import { topicLevel } from './topic.ts';

export function textAs(esc: Esc, value: unknown, src: string): string {
  switch (esc) {
    case 'base': return urlBase(value, src);
    case 'segment': {
      const s = text(value);
      // WHATWG URLs resolve `.`/`..` (and %2e forms) in place: no encoding keeps them in one segment.
      if (s === '.' || s === '..') throw new Refused(`${src} is "${s}", which would move the URL path: refused`, 400);
      return encodeURIComponent(s);
    }
    case 'query': case 'fragment': return encodeURIComponent(text(value));
    case 'json-string': return jsonString(text(value)).slice(1, -1);
    case 'topic-level': return topicLevel(value, src);
    case 'json': return JSON.stringify(value === undefined ? null : value) ?? 'null';
  }
}
