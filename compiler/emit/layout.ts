// Lays out the code the code builder emits, in place of a general formatter (prettier took most of
// `pipewright compile`'s time). The builder already puts statements on their own lines; this pass
// re-indents by bracket depth, collapses blank lines, and breaks a line wider than the page at its
// brackets, one element a line, as prettier would. It knows only what we emit: strings, template
// literals, comments, brackets and the rest as plain words (no regular-expression literals). Spacing
// inside a line is the builder's own. The same text always gives the same bytes.

const enum T { Word, Space, Str, Comment, Open, Close, Comma, Semi, Newline }

interface Tok { t: T; s: string }

const OPEN = '([{', CLOSE = ')]}';
/** Words before `(` that make it a grouping, not a call or parameter list (no trailing comma there). */
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'typeof', 'void', 'await', 'in', 'of', 'instanceof', 'case', 'throw', 'yield', 'delete', 'else', 'do', 'new', 'as', 'keyof']);

export function layout(text: string, width = 110): string {
  const toks = tokenize(text);
  const match = pairs(toks);
  const pre = new Int32Array(toks.length + 1);
  for (let i = 0; i < toks.length; i++) pre[i + 1] = pre[i]! + toks[i]!.s.length;
  return new Layout(toks, match, pre, width).file();
}

/** Characters that end a word (a run of anything else). */
const STOP = new Uint8Array(128);
for (const c of ' \t\r\n"\'`,;([{)]}/') STOP[c.charCodeAt(0)] = 1;
/** Tokens without text of their own are shared. */
const FIXED = new Map<string, Tok>([['\n', { t: T.Newline, s: '\n' }], [' ', { t: T.Space, s: ' ' }], [',', { t: T.Comma, s: ',' }], [';', { t: T.Semi, s: ';' }],
  ...[...OPEN].map((c): [string, Tok] => [c, { t: T.Open, s: c }]), ...[...CLOSE].map((c): [string, Tok] => [c, { t: T.Close, s: c }])]);

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  const n = src.length;
  let i = 0;
  while (i < n) {
    const c = src[i]!;
    const start = i;
    if (c === ' ' || c === '\t' || c === '\r') {
      while (i < n && (src[i] === ' ' || src[i] === '\t' || src[i] === '\r')) i++;
      out.push(FIXED.get(' ')!);
      continue;
    }
    const fixed = FIXED.get(c);
    if (fixed) { out.push(fixed); i++; continue; }
    if (c === '"' || c === "'") {
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++;
      out.push({ t: T.Str, s: src.slice(start, i) });
      continue;
    }
    if (c === '`') {
      // To the closing backtick, over `${…}` holes (which may hold braces of their own).
      let depth = 0;
      i++;
      while (i < n && !(src[i] === '`' && depth === 0)) {
        if (src[i] === '\\') i++;
        else if (src[i] === '$' && src[i + 1] === '{') { depth++; i++; }
        else if (src[i] === '{' && depth > 0) depth++;
        else if (src[i] === '}' && depth > 0) depth--;
        i++;
      }
      i++;
      out.push({ t: T.Str, s: src.slice(start, i) });
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      out.push({ t: T.Comment, s: src.slice(start, i).trimEnd() });
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      out.push({ t: T.Comment, s: src.slice(start, i) });
      continue;
    }
    // A word: to the next stop; a `/` stops it only where a comment starts (else it is division).
    i++;
    for (let k = src.charCodeAt(i); i < n && (k >= 128 || !STOP[k] || (k === 47 && src[i + 1] !== '/' && src[i + 1] !== '*')); k = src.charCodeAt(++i));
    out.push({ t: T.Word, s: src.slice(start, i) });
  }
  return out;
}

/** The index of each bracket's partner (-1 for none). */
function pairs(toks: Tok[]): Int32Array {
  const match = new Int32Array(toks.length).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < toks.length; i++) {
    const k = toks[i]!;
    if (k.t === T.Open) stack.push(i);
    else if (k.t === T.Close) {
      const o = stack.pop();
      if (o === undefined || OPEN.indexOf(toks[o]!.s) !== CLOSE.indexOf(k.s)) throw new Error(`unbalanced ${k.s} in generated code`);
      match[o] = i;
      match[i] = o;
    }
  }
  if (stack.length) throw new Error(`unclosed ${toks[stack.at(-1)!]!.s} in generated code`);
  return match;
}

class Layout {
  private readonly out: string[] = [];

  constructor(private readonly toks: Tok[], private readonly match: Int32Array, private readonly pre: Int32Array, private readonly width: number) {}

  file(): string {
    const { toks } = this;
    /** Each open bracket's line, for indentation: brackets opened on one line indent once. */
    const opened: number[] = [];
    let line = 0, blank = false;
    for (let from = 0; from < toks.length;) {
      let to = from;
      while (to < toks.length && toks[to]!.t !== T.Newline) to++;
      let a = from, b = to;
      while (a < b && toks[a]!.t === T.Space) a++;
      while (b > a && toks[b - 1]!.t === T.Space) b--;
      if (a === b) blank = this.out.length > 0;
      else {
        // Leading closers end their lines' indentation before this line is indented.
        const closed = new Set<number>();
        let k = a;
        for (; k < b && toks[k]!.t === T.Close; k++) closed.add(opened.pop()!);
        let depth = 0;
        for (let j = 0; j < opened.length; j++) if ((j === 0 || opened[j] !== opened[j - 1]) && !closed.has(opened[j]!)) depth++;
        if (blank && !this.out.at(-1)!.endsWith('{')) this.out.push('');
        blank = false;
        this.line(a, b, depth);
        for (; k < b; k++) {
          const t = toks[k]!.t;
          if (t === T.Open) opened.push(line);
          else if (t === T.Close) opened.pop();
        }
      }
      from = to + 1;
      line++;
    }
    return `${this.out.join('\n')}\n`;
  }

  /** Flat width of tokens [a, b). */
  private w(a: number, b: number): number { return this.pre[b]! - this.pre[a]!; }

  private text(a: number, b: number): string {
    let s = '';
    for (let i = a; i < b; i++) s += this.toks[i]!.s;
    return s;
  }

  /** Tokens [a, b) (no leading or trailing space) at `depth`, broken while wider than the page:
   *  after an `if (…)` or an arrow when what follows then fits a line, else at the last bracket whose
   *  opening fits (hugging a last argument that is itself a bracket), else after a `=`. */
  private line(a: number, b: number, depth: number, suffix = ''): void {
    const pad = 2 * depth;
    if (pad + this.w(a, b) + suffix.length <= this.width) { this.out.push(' '.repeat(pad) + this.text(a, b) + suffix); return; }
    const { toks, match } = this;
    const fitsAfter = (i: number) => pad + 2 + this.w(this.skip(i + 1, b), b) + suffix.length <= this.width;
    if (toks[a]!.s === 'if' && toks[a + 2]?.t === T.Open && match[a + 2]! + 2 < b && toks[this.skip(match[a + 2]! + 1, b)]!.s !== '{' && fitsAfter(match[a + 2]!)) return this.split(a, match[a + 2]! + 1, b, depth, suffix);
    const arrow = this.operator(a, b, pad, '=>');
    if (arrow >= 0 && fitsAfter(arrow)) return this.split(a, arrow + 1, b, depth, suffix);
    if (this.concat(a, b, depth, suffix)) return;
    let g = this.block(a, b) ?? this.pick(a, b, pad);
    if (g < 0 || pad + this.w(a, g + 1) > this.width) {
      const op = this.operator(a, b, pad, '=');
      if (op >= 0) return this.split(a, op + 1, b, depth, suffix);
    }
    if (g < 0) { this.out.push(' '.repeat(pad) + this.text(a, b) + suffix); return; }
    // Hug, as prettier does for arguments: a sole object or array argument, or a last argument that is an
    // arrow function, breaks its own bracket instead of the call's, when that bracket's opening fits.
    for (let inner = this.hug(g); inner >= 0 && pad + this.w(a, inner + 1) <= this.width; inner = this.hug(g)) g = inner;
    const close = match[g]!;
    this.line(a, g + 1, depth);
    const elems = this.elements(g);
    for (const [i, [x, y]] of elems.entries()) {
      const trailing = i === elems.length - 1 && toks[y - 1]!.t !== T.Comma && toks[y - 1]!.t !== T.Semi && this.trailingComma(g, x) ? ',' : '';
      this.line(x, y, depth + 1, trailing);
    }
    this.line(close, b, depth, suffix);
  }

  /** The bracket inside call or arrow-body group `g` to break in its place, or -1. */
  private hug(g: number): number {
    const { toks, match } = this;
    if (toks[g]!.s !== '(') return -1;
    const elems = this.elements(g);
    const [x, y] = elems.at(-1)!;
    if (toks[y - 1]!.t !== T.Close) return -1;
    const inner = match[y - 1]!;
    if (inner === y - 2 || inner < x) return -1;
    if (elems.length === 1 && toks[inner]!.s !== '(' && (inner === x || !this.hasOpen(x, inner))) return inner;
    // `(…) => {`, `=> (` or `=> [`: the arrow's body, when the other arguments hold no brackets.
    let before = inner - 1;
    while (before > x && toks[before]!.t === T.Space) before--;
    if (toks[before]!.s !== '=>') return -1;
    return elems.slice(0, -1).some(([s, e]) => this.hasOpen(s, e)) ? -1 : inner;
  }

  /** The first whole block `{ …; }` on the line: blocks always break, one statement a line. */
  private block(a: number, b: number): number | undefined {
    const { toks, match } = this;
    for (let i = a; i < b; i++) {
      if (toks[i]!.t !== T.Open) continue;
      if (match[i]! >= b) continue;
      if (toks[i]!.s === '{' && this.hasTopLevel(i, T.Semi)) return i;
      i = match[i]!;
    }
    return undefined;
  }

  /** A string concatenation `x + y + …` outside brackets: one operand a line, after a leading `key:` or `=`. */
  private concat(a: number, b: number, depth: number, suffix: string): boolean {
    const { toks, match } = this;
    const plus: number[] = [];
    let lead = -1;
    for (let i = a; i < b; i++) {
      const k = toks[i]!;
      if (k.t === T.Open) { if (match[i]! >= b) return false; i = match[i]!; continue; }
      if (k.t === T.Close || k.t === T.Comment) return false;
      if (k.t !== T.Word) continue;
      if (k.s === '+') plus.push(i);
      else if (!plus.length && (k.s === '=' || (k.s.endsWith(':') && i === a))) lead = i;
      else if (k.s === '=>' || k.s === '?' || k.s === '&&' || k.s === '||') return false;
    }
    if (!plus.length) return false;
    let from = a;
    if (lead >= 0) { this.line(a, lead + 1, depth); from = this.skip(lead + 1, b); }
    for (const [n, op] of plus.entries()) {
      let e = op;
      while (e > from && toks[e - 1]!.t === T.Space) e--;
      this.out.push(' '.repeat(2 * (depth + (lead >= 0 || n > 0 ? 1 : 0))) + this.text(from, e) + ' +');
      from = this.skip(op + 1, b);
    }
    this.line(from, b, depth + 1, suffix);
    return true;
  }

  /** [a, at) on this line, the rest of [a, b) indented on the next. */
  private split(a: number, at: number, b: number, depth: number, suffix: string): void {
    this.line(a, at, depth);
    this.line(this.skip(at, b), b, depth + 1, suffix);
  }

  private skip(i: number, b: number): number {
    while (i < b && this.toks[i]!.t === T.Space) i++;
    return i;
  }

  private hasOpen(a: number, b: number): boolean {
    for (let i = a; i < b; i++) if (this.toks[i]!.t === T.Open) return true;
    return false;
  }

  /** The non-empty elements of the group opened at `g`, split at its own commas and semicolons (not
   *  those of inner brackets or type arguments), each with its separator and without outer spaces. */
  private elements(g: number): Array<[number, number]> {
    const { toks, match } = this;
    const close = match[g]!;
    const out: Array<[number, number]> = [];
    const push = (s: number, e: number) => {
      s = this.skip(s, e);
      while (e > s && toks[e - 1]!.t === T.Space) e--;
      if (s < e) out.push([s, e]);
    };
    let angle = 0, start = g + 1;
    for (let i = g + 1; i < close; i++) {
      const k = toks[i]!;
      if (k.t === T.Open) { i = match[i]!; continue; }
      if (k.t === T.Word) angle += angles(k.s, angle);
      else if ((k.t === T.Comma || k.t === T.Semi) && angle === 0) { push(start, i + 1); start = i + 1; }
    }
    push(start, close);
    return out;
  }

  /** The bracket to break in [a, b): the last whole group on the line whose opening still fits, else the first. */
  private pick(a: number, b: number, pad: number): number {
    const { toks, match } = this;
    let first = -1, best = -1;
    for (let i = a; i < b; i++) {
      if (toks[i]!.t !== T.Open) continue;
      const m = match[i]!;
      if (m >= b || m === i + 1) continue; // opened here, closed on a later line: look inside it; or empty
      if (first < 0) first = i;
      if (pad + this.w(a, i + 1) <= this.width) best = i;
      i = m;
    }
    return best >= 0 ? best : first;
  }

  /** The last `op` outside whole groups in [a, b) that fits, with whole groups only after it, or -1. */
  private operator(a: number, b: number, pad: number, op: string): number {
    const { toks, match } = this;
    let best = -1;
    for (let i = a; i < b; i++) {
      const k = toks[i]!;
      if (k.t === T.Open) {
        if (match[i]! < b) { i = match[i]!; continue; }
        best = -1; // an unclosed bracket after the operator would move to the next line
      } else if (k.t === T.Close && match[i]! < a) best = -1;
      else if (k.t === T.Word && k.s === op && pad + this.w(a, i + 1) <= this.width && this.skip(i + 1, b) < b) best = i;
    }
    return best;
  }

  /** Whether a broken group's last element takes a trailing comma: lists, objects and calls, never after a rest element. */
  private trailingComma(open: number, lastStart: number): boolean {
    const { toks } = this;
    if (toks[lastStart]!.s.startsWith('...')) return false;
    const o = toks[open]!.s;
    if (o === '[') return true;
    const prev = open > 0 ? toks[open - 1]! : undefined;
    if (o === '{') {
      // An object literal or type, not a block (a block's statements end in semicolons).
      return !this.hasTopLevel(open, T.Semi);
    }
    // A call or a parameter list: `name(` or `)(`, not `if (` nor a parenthesised expression.
    if (!prev) return false;
    if (prev.t === T.Close) return prev.s !== '}';
    return prev.t === T.Word && /[\w$]$/.test(prev.s) && !KEYWORDS.has(prev.s.split(/[^\w$]/).at(-1)!);
  }

  private hasTopLevel(open: number, t: T): boolean {
    for (let i = open + 1; i < this.match[open]!; i++) {
      if (this.toks[i]!.t === T.Open) i = this.match[i]!;
      else if (this.toks[i]!.t === t) return true;
    }
    return false;
  }
}

/** The change in type-argument depth of a word: `<` right after a name opens one, `>` closes it (not `=>`, `>=`). */
function angles(s: string, depth: number): number {
  let d = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '<' && s[i + 1] !== '=' && i > 0 && /[\w$]/.test(s[i - 1]!)) d++;
    else if (c === '>' && depth + d > 0 && s[i - 1] !== '=' && s[i + 1] !== '=') d--;
  }
  return d;
}
