// The import graph of the sources, at file and folder level, and its cycles. A small scan of
// relative import/export specifiers: static, dynamic and type-only alike (a type import couples
// two folders as much as a value import does).
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

export type Graph = Map<string, Set<string>>;

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Relative specifiers of one source file. */
export function importsOf(code: string): string[] {
  return [...code.matchAll(SPECIFIER)].map((m) => m[1]!);
}

/** File → files it imports, for every .ts file under `roots` (paths relative to `base`, `/`-separated). */
export function fileGraph(base: string, roots: string[]): Graph {
  const g: Graph = new Map();
  for (const root of roots) {
    for (const entry of readdirSync(join(base, root), { recursive: true, encoding: 'utf8' })) {
      if (!entry.endsWith('.ts')) continue;
      const file = posix.join(root, entry.split('\\').join('/'));
      const targets = importsOf(readFileSync(join(base, file), 'utf8')).map((s) => posix.normalize(posix.join(posix.dirname(file), s)));
      g.set(file, new Set(targets));
    }
  }
  return g;
}

/**
 * The folder a file belongs to: a layer's own files (`runtime/ir.ts`) are the layer (`runtime`), a
 * file in a subfolder belongs to the subfolder below the layer (`runtime/actions/http/plan.ts` is
 * `runtime/actions`), and a layer's public entry (`<layer>/index.ts`) stands alone: it sits on top of
 * its layer while the layer's own files (IR, contracts) sit at the bottom.
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 2 && parts[1] === 'index.ts') return file;
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Folder → folders it imports from (edges inside one folder dropped). */
export function folderGraph(files: Graph): Graph {
  const g: Graph = new Map();
  for (const [from, targets] of files) {
    const edges = g.get(folderOf(from)) ?? g.set(folderOf(from), new Set()).get(folderOf(from))!;
    for (const to of targets) if (folderOf(to) !== folderOf(from)) edges.add(folderOf(to));
  }
  return g;
}

/** Groups of two or more folders that import each other, directly or around a loop (sorted). */
export function cycles(g: Graph): string[][] {
  // Tarjan's strongly connected components.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = stack.splice(stack.indexOf(v));
    if (group.length > 1) out.push(group.sort());
  };
  const nodes = new Set([...g.keys(), ...[...g.values()].flatMap((s) => [...s])]);
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Every file reachable from `start` (itself excluded). */
export function reachable(files: Graph, start: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(files.get(start) ?? [])];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...(files.get(f) ?? []));
  }
  return seen;
}
