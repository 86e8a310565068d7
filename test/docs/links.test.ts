// The docs name no file that does not exist: every relative link of README.md and docs/**/*.md
// resolves to a file (and its #anchor to a heading of that file), and every backticked repository path
// (`runtime/exec/run.ts`, `docs/guide.md#responses`) exists. Fenced code is not read: its paths are
// examples of a user's project, not of this repository.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Top folders a backticked path is taken as this repository's from; built and ignored ones are left out. */
const REPO_ROOTS = ['bench', 'bin', 'cli', 'compiler', 'docs', 'fixtures', 'out', 'runtime', 'scripts', 'test'];
const NOT_COMMITTED = [/^bench\/\.build\//, /^bench\/results\//, /^out\/.*\/server\.mjs/];
/** Drafts other branches write, merged into docs/decisions.md by hand. */
const SKIP_DIRS = new Set(['decisions-pending']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return SKIP_DIRS.has(e.name) ? [] : markdownFiles(join(dir, e.name));
    return e.name.endsWith('.md') ? [join(dir, e.name)] : [];
  });
}
const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

/** The text outside fenced code blocks. */
const prose = (md: string) => md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** GitHub's heading anchors: lower case, punctuation dropped, each space a hyphen, repeats numbered. */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const anchorCache = new Map<string, Set<string>>();
function hasAnchor(file: string, anchor: string): boolean {
  if (!anchorCache.has(file)) anchorCache.set(file, anchors(readFileSync(file, 'utf8')));
  return anchorCache.get(file)!.has(decodeURIComponent(anchor).toLowerCase());
}

/** What is wrong with a reference to `target` (a path, optionally with #anchor) resolved from `base`, or null. */
function problem(base: string, target: string): string | null {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? base : join(dirname(base), decodeURI(path));
  if (!existsSync(file)) return 'no such file';
  if (anchor && file.endsWith('.md') && statSync(file).isFile() && !hasAnchor(file, anchor)) return `no heading #${anchor}`;
  return null;
}

/** The relative link targets of a Markdown file (not http:, https:, mailto:). */
export function relativeLinks(md: string): string[] {
  return [...prose(md).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

function brokenLinks(file: string): string[] {
  const out: string[] = [];
  for (const target of relativeLinks(readFileSync(file, 'utf8'))) {
    const p = problem(file, target);
    if (p) out.push(`${relative(root, file)}: link ${target}: ${p}`);
  }
  return out;
}

/** Backticked text that reads as a path in this repository: `runtime/exec/run.ts`, `docs/guide.md#ci`, `test/docs/`. */
export function repoPaths(md: string): string[] {
  const found: string[] = [];
  for (const m of prose(md).matchAll(/`([^`\n]+)`/g)) {
    const t = m[1]!.replace(/:\d+(:\d+)?$/, '');
    if (!/^[A-Za-z0-9_.@-]+(\/[A-Za-z0-9_.@-]*)+(#[\w-]+)?$/.test(t)) continue;
    if (!REPO_ROOTS.includes(t.split('/')[0]!)) continue;
    if (NOT_COMMITTED.some((r) => r.test(t))) continue;
    found.push(t);
  }
  return found;
}

function brokenPaths(file: string): string[] {
  return repoPaths(readFileSync(file, 'utf8')).flatMap((t) => {
    const p = problem(join(root, 'README.md'), t);
    return p ? [`${relative(root, file)}: \`${t}\`: ${p}`] : [];
  });
}

describe('docs links', () => {
  it('reads the README and every doc', () => {
    expect(files.map((f) => relative(root, f))).toEqual(expect.arrayContaining(['README.md', 'docs/guide.md', 'docs/reference.md', 'docs/decisions.md']));
  });

  it('every relative link resolves to a file, and its anchor to a heading there', () => {
    // The check reads links at all: the guide links every example, the README the docs.
    expect(relativeLinks(readFileSync(join(root, 'docs/guide.md'), 'utf8'))).toContain('../examples/order-feed/');
    expect(files.flatMap((f) => relativeLinks(readFileSync(f, 'utf8'))).length).toBeGreaterThan(50);
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it('every backticked repository path exists', () => {
    expect(files.flatMap((f) => repoPaths(readFileSync(f, 'utf8'))).length).toBeGreaterThan(50);
    expect(files.flatMap(brokenPaths)).toEqual([]);
  });

  it('finds a broken link, a missing anchor and a missing path, and takes GitHub\'s anchors', () => {
    const here = join(root, 'docs', 'guide.md');
    expect(problem(here, 'reference.md')).toBeNull();
    expect(problem(here, 'no-such.md')).toBe('no such file');
    expect(problem(here, 'guide.md#no-such-heading')).toBe('no heading #no-such-heading');
    expect(repoPaths('see `runtime/exec/run.ts:12` and `a|body::id|`, `docs/x.md#y`, not\n```\n`cli/nope.ts`\n```\n'))
      .toEqual(['runtime/exec/run.ts', 'docs/x.md#y']);
    expect([...anchors('# Request bodies: `accepts.schema`\n## A b\n## A b\n```\n# not a heading\n```\n')])
      .toEqual(['request-bodies-acceptsschema', 'a-b', 'a-b-1']);
  });
});
