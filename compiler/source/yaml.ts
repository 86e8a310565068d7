// YAML parsing that keeps source positions, so every later diagnostic can point at the offending text.
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import type { Diagnostic } from './diagnostics.ts';

export type ConfigPath = Array<string | number>;
export interface Position {
  line: number;
  col: number;
}
/**
 * Position of the node at `path` (1-based). For a mapping entry it is the key unless `at` is 'value'.
 * A path that does not exist falls back to its nearest existing ancestor.
 */
export type Locate = (path: ConfigPath, at?: 'key' | 'value') => Position;

export interface ParsedYaml {
  value: unknown;
  diagnostics: Diagnostic[];
  locate: Locate;
}

export function parseYamlWithPositions(file: string, text: string): ParsedYaml {
  const lineCounter = new LineCounter();
  // uniqueKeys off: duplicates are reported below with both positions, which yaml's own error lacks.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: false });
  const pos = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: Math.max(1, p.line), col: Math.max(1, p.col) };
  };
  const diagnostics: Diagnostic[] = [];
  // yaml places some errors at the indentation before the offending text; point at the text.
  const at = (offset: number): Position => {
    let o = offset;
    while (text[o] === ' ') o++;
    return pos(o);
  };
  for (const e of doc.errors) diagnostics.push(yamlDiagnostic(file, 'error', e.message, at(e.pos[0])));
  // A tag such as !!js/function would load as a plain string: refused, not silently read as text.
  for (const w of doc.warnings) {
    const unknownTag = w.code === 'TAG_RESOLVE_FAILED';
    const d = yamlDiagnostic(file, unknownTag ? 'error' : 'warning', w.message, at(w.pos[0]));
    if (unknownTag) d.hint = 'configs are plain YAML data: remove the tag (only the standard tags such as !!str are understood)';
    diagnostics.push(d);
  }
  diagnostics.push(...duplicateKeys(file, doc, pos));

  let value: unknown = null;
  if (doc.errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
      // An alias inside its own anchor (`x: &a [*a]`) makes a cycle: every later walk would recurse
      // forever. A config is a tree.
      const loop = selfAliasOffset(doc);
      if (loop !== undefined) {
        value = null;
        const d = yamlDiagnostic(file, 'error', 'an alias refers to the anchor it is inside (a cycle)', pos(loop));
        d.hint = 'a config is a tree: copy the value instead of referring to itself';
        diagnostics.push(d);
      }
    } catch (err) {
      // toJS throws without a position (unresolved alias, alias bombs); point at the first alias that fails.
      diagnostics.push(yamlDiagnostic(file, 'error', (err as Error).message, pos(badAliasOffset(doc))));
    }
  }
  const locate: Locate = (path, at = 'key') => pos(findOffset(doc, path, at));
  return { value, diagnostics, locate };
}

function yamlDiagnostic(file: string, severity: 'error' | 'warning', message: string, p: Position): Diagnostic {
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  return { file, ...p, severity, message: `YAML: ${first}` };
}

function duplicateKeys(file: string, doc: Document, pos: (o: number) => Position): Diagnostic[] {
  const out: Diagnostic[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Map<string, Pair>();
      for (const pair of map.items) {
        if (!isScalar(pair.key) || !pair.key.range) continue;
        const name = String(pair.key.value);
        const first = seen.get(name);
        if (!first) {
          seen.set(name, pair);
          continue;
        }
        const firstLine = pos((first.key as Node).range![0]).line;
        out.push({
          file,
          ...pos(pair.key.range[0]),
          severity: 'error',
          message: `duplicate key "${name}"`,
          hint: `"${name}" is already set on line ${firstLine}; a key may appear only once in a mapping`,
        });
      }
    },
  });
  return out;
}

/** Offset of the node at `path`, or of its nearest existing ancestor. */
function findOffset(doc: Document, path: ConfigPath, at: 'key' | 'value'): number {
  let node: unknown = doc.contents;
  let keyOffset = rangeStart(node) ?? 0;
  let valueOffset = keyOffset;
  for (const seg of path) {
    node = deref(doc, node);
    let next: unknown;
    if (isMap(node)) {
      const pair = findPair(doc, node, String(seg));
      if (!pair) break;
      keyOffset = rangeStart(pair.key) ?? keyOffset;
      next = pair.value;
      valueOffset = isEmpty(pair.value) ? keyOffset : (rangeStart(pair.value) ?? keyOffset);
    } else if (isSeq(node) && /^\d+$/.test(String(seg))) {
      next = node.items[Number(seg)];
      if (next === undefined) break;
      keyOffset = valueOffset = rangeStart(next) ?? keyOffset;
    } else break;
    node = next;
  }
  return at === 'value' ? valueOffset : keyOffset;
}

/** Offset of the first alias written inside the node its anchor names, if any. */
function selfAliasOffset(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Alias(_, alias) {
      const target = alias.resolve(doc) as { range?: [number, number, number] } | undefined;
      const at = alias.range?.[0];
      if (!target?.range || at === undefined || at < target.range[0] || at >= target.range[1]) return undefined;
      offset = at;
      return visit.BREAK;
    },
  });
  return offset;
}

function badAliasOffset(doc: Document): number {
  let offset = 0;
  visit(doc, {
    Alias(_, alias) {
      if (alias.resolve(doc) !== undefined) return undefined;
      offset = alias.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}

function deref(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/** `key:` with nothing after it: point at the key rather than the end of the line. */
function isEmpty(node: unknown): boolean {
  const r = (node as { range?: [number, number, number] } | null)?.range;
  return !r || r[0] === r[1];
}

function rangeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null)?.range?.[0];
}

/** A key of the map itself, else one inherited through a `<<` merge. */
function findPair(doc: Document, map: YAMLMap, key: string, depth = 0): Pair | undefined {
  const own = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  if (own || depth > 10) return own;
  for (const p of map.items) {
    if (!isScalar(p.key) || (p.key.value !== '<<' && typeof p.key.value !== 'symbol')) continue;
    const sources = isSeq(p.value) ? p.value.items : [p.value];
    for (const s of sources) {
      const target = deref(doc, s);
      const found = isMap(target) ? findPair(doc, target, key, depth + 1) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

