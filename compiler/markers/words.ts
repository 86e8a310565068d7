// A command line split into words from the config's own text, before any value is known: a marker
// never splits a word and never ends one (its value becomes part of one argument). Lowering
// (compiler/lower/command.ts) builds argv from these words; the request-value rule reads them to
// find which word a marker fills (./request-values.ts).
import type { Part } from './parse.ts';

/** A command line that cannot be split (an unclosed quote, no program). */
export class WordError extends Error {}

/** Shell-like word splitting of the config text: blanks separate words; '…' and "…" group (with \" \\ \$ \` escapes
 *  inside double quotes) and a backslash escapes one character. Markers never split and never end a word. */
export function splitWords(parts: Part[]): Part[][] {
  const words: Part[][] = [];
  let word: Part[] | undefined;
  let quote: '' | "'" | '"' = '';
  const add = (p: Part) => {
    word ??= [];
    const last = word[word.length - 1];
    if (typeof p === 'string' && typeof last === 'string') word[word.length - 1] = last + p;
    else word.push(p);
  };
  for (const part of parts) {
    if (typeof part !== 'string') { add(part); continue; }
    for (let i = 0; i < part.length; i++) {
      const ch = part[i]!;
      if (quote === "'") { if (ch === "'") quote = ''; else add(ch); continue; }
      if (quote === '"') {
        if (ch === '"') quote = '';
        else if (ch === '\\' && '"\\$`'.includes(part[i + 1] ?? '')) add(part[++i]!);
        else add(ch);
        continue;
      }
      if (ch === "'" || ch === '"') { quote = ch; word ??= []; continue; }
      if (ch === '\\' && i + 1 < part.length) { add(part[++i]!); continue; }
      if (/\s/.test(ch)) { if (word) words.push(word); word = undefined; continue; }
      add(ch);
    }
  }
  if (quote) throw new WordError(`unclosed ${quote} in command.run`);
  if (word) words.push(word);
  if (!words.length) throw new WordError('command.run names no program');
  return words;
}

