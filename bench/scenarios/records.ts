// The posted body of the transform scenarios: 1,000 deterministic records, and the hand-written
// report over them (filter price > 10, total = price × qty, count and sum of total by cat).
// Fractional sums are cut to 15 significant digits: pipewright's documented aggregate rule.

export interface Rec { id: number; cat: string; price: number; qty: number; name: string; total?: number }

export function records(): Rec[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const cats = ['books', 'games', 'tools', 'toys', 'food'];
  return Array.from({ length: 1000 }, (_, i) => ({
    id: i + 1, cat: cats[Math.floor(rnd() * cats.length)]!, price: Math.round(rnd() * 3000) / 100, qty: Math.floor(rnd() * 5) + 1, name: `product ${i + 1}`,
  }));
}

const clean = (n: number) => (Number.isInteger(n) ? n : Number(n.toPrecision(15)));

export function report(items: Rec[]): unknown {
  const groups = new Map<string, { count: number; total: number }>();
  let count = 0, total = 0;
  for (const it of items) {
    if (!(it.price > 10)) continue;
    const t = it.price * it.qty;
    count++;
    total += t;
    let g = groups.get(it.cat);
    if (!g) groups.set(it.cat, (g = { count: 0, total: 0 }));
    g.count++;
    g.total += t;
  }
  return {
    count, sum: { total: clean(total) },
    groups: [...groups].map(([cat, g]) => ({ key: { cat }, count: g.count, sum: { total: clean(g.total) } })),
  };
}
