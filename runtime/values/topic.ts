// A marker inside an MQTT topic fills exactly one level: its value can add no level (`/`), no
// wildcard (`+`, `#`), no NUL, and cannot start a `$` topic or be empty. A bad value is the
// client's mistake: 400, never retried, never published (docs/decisions.md, Security, "Where
// request values may go").
import { Refused } from '../refused.ts';
import { text } from './text.ts';

export function topicLevel(value: unknown, src: string): string {
  const s = text(value);
  const why = s === '' ? 'is empty'
    : /[/]/.test(s) ? 'contains /, which would add a topic level'
      : /[+#]/.test(s) ? 'contains an MQTT wildcard (+ or #)'
        : s.includes('\u0000') ? 'contains NUL'
          : s.startsWith('$') ? 'starts with $ (broker topics such as $SYS)'
            : undefined;
  if (why) throw new Refused(`${src} fills one topic level but its value ${why}: refused`, 400);
  return s;
}
