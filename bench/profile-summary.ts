// Self time by function of a V8 .cpuprofile, as a table of the heaviest `top` entries.
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

/** Self time by function, and by file or package, of the samples after `skipMs` (start-up). */

export function summarise(p: Profile, top: number, skipMs = 0): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0, at = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    at += dt;
    if (at < skipMs * 1000) continue;
    const n = byId.get(p.samples[i]!)!;
    total += dt;
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules\/)?/, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    const file = f.url.includes('/node_modules/') ? f.url.replace(/^.*\/node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1') : f.url.replace(/^.*\/(runtime|dist)\//, '') || '(native)';
    byFile.set(file, (byFile.get(file) ?? 0) + dt);
  }
  const table = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
  return `by function:\n${table(self, top)}\nby file or package:\n${table(byFile, 25)}\n`;
}
