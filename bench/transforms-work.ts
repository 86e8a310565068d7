// The work of the transforms benchmark: the config (filter, math, rename, aggregate, jq over
// 1,000 records), its request body, and the same work written by hand for the fastify baseline.
import { roundDecimal } from '../runtime/calc/round.ts';

export const JQ = '{count: (.items | length), top: [.items[] | select(.total > 500) | .id][0:10], summary: .summary}';
export const YAML = `
interfaces:
  report:
    method: POST
    route: /report
    actions:
      - name: Report
        input: a|body|
        output: http
        post_transforms:
          - filter: { target: items, conditions: { status: { is_not_equal_to: cancelled }, qty: { is_greater_than: 0 } } }
          - math: { target: items, expressions: { total: "target.qty * target.price", net: "target.total * 0.8" }, decimal_places: 2 }
          - nested_transforms: { items: [ { rename_attributes: { region: area } } ] }
          - aggregate: { over: items, group_by: [area], sum: [total, net], count: true, key: summary }
          - extract_with_jq: ${JSON.stringify(JQ)}
`;

/** 1,000 deterministic records (a small LCG, so every run posts the same body). */
export function records(): unknown {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const regions = ['eu', 'us', 'apac', 'latam'];
  const statuses = ['open', 'paid', 'cancelled', 'shipped'];
  const items = Array.from({ length: 1000 }, (_, i) => ({
    id: i + 1, region: regions[Math.floor(rnd() * 4)], status: statuses[Math.floor(rnd() * 4)],
    qty: Math.floor(rnd() * 10), price: Math.round(rnd() * 20000) / 100, customer: { name: `c${i % 37}` },
  }));
  return { page: 1, items };
}

// The same work written by hand (rounding shares the runtime's decimal rounding: same output bytes).
export type Item = { id: number; region?: string; area?: string; status: string; qty: number; price: number; total?: number; net?: number };
const r2 = (x: number) => roundDecimal(x, 2)!.num;
const clean = (n: number) => (Number.isInteger(n) ? n : Number(n.toPrecision(15)));
export function handWritten(body: { items: Item[] }): unknown {
  const items = body.items
    .filter((it) => it.status !== 'cancelled' && it.qty > 0)
    .map(({ region, ...rest }) => {
      const total = r2(rest.qty * rest.price);
      const net = r2(total * 0.8);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries({ ...rest, region })) out[k === 'region' ? 'area' : k] = v;
      out.total = total; out.net = net;
      return out as Item;
    });
  const groups = new Map<string, { key: { area: string }; count: number; sum: { total: number; net: number } }>();
  let total = 0, net = 0;
  for (const it of items) {
    total += it.total!; net += it.net!;
    const g = groups.get(it.area!) ?? groups.set(it.area!, { key: { area: it.area! }, count: 0, sum: { total: 0, net: 0 } }).get(it.area!)!;
    g.count++; g.sum.total += it.total!; g.sum.net += it.net!;
  }
  const summary = {
    count: items.length, sum: { total: clean(total), net: clean(net) },
    groups: [...groups.values()].map((g) => ({ key: g.key, count: g.count, sum: { total: clean(g.sum.total), net: clean(g.sum.net) } })),
  };
  return { count: items.length, top: items.filter((it) => it.total! > 500).slice(0, 10).map((it) => it.id), summary };
}
