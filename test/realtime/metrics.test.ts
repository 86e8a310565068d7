// /metrics scraped and parsed by a Prometheus text parser: built-in run metrics (hide_metrics
// respected), emit_metric counters, gauges and histograms with labels, the series cap, and check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../runtime/server/app.ts';
import { compileConfig } from '../../compiler/project.ts';
import { planOf, testEnv } from '../support/plans.ts';

const config = `
expose_metrics: true
interfaces:
  order:
    method: POST
    actions:
      - name: Count
        emit_metric: { name: orders_total, type: counter, labels: { shop: a|body::shop|, kind: web }, help: Orders taken. }
      - name: Basket
        emit_metric: { name: basket_size, value: a|body::items|, labels: { shop: a|body::shop| } }
      - name: Latency
        emit_metric: { name: checkout_seconds, type: histogram, value: 0.3 }
      - name: Check
        input: a|body|
        assert: { tests: [{ value: a|body::items|, is_greater_than: 0 }] }
        output: http
  flaky:
    actions:
      - { name: Visible, input: "x", post_transforms: [{ extract_with_jq: "error(\\"boom\\")" }] }
  quiet:
    actions:
      - { name: Hidden, hide_metrics: true, input: "x", post_transforms: [{ extract_with_jq: "error(\\"boom\\")" }] }
`;

type Family = { name: string; help: string; type: string; metrics: Array<{ value?: string; labels?: Record<string, string>; count?: string; sum?: string }> };

for (const mode of ['compiled', 'interpreted'] as const) {
  describe(`metrics (${mode})`, () => {
    let app: FastifyInstance;
    let text = '';
    beforeAll(async () => { app = buildApp([await planOf('shop.yaml', mode, config)], { env: testEnv(), maxMetricSeries: 3 }); });
    afterAll(() => app.close());
    const scrape = async () => {
      const r = await app.inject({ method: 'GET', url: '/metrics' });
      expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      text = r.body;
      return new Map((parsePrometheusTextFormat(r.body) as Family[]).map((f) => [f.name, f]));
    };

    it('exposes emitted metrics and the built-in run metrics', async () => {
      for (const [shop, items] of [['north', 2], ['north', 3], ['south', 0]] as const) await app.inject({ method: 'POST', url: '/order', payload: { shop, items } });
      await app.inject({ method: 'GET', url: '/flaky' });
      await app.inject({ method: 'GET', url: '/quiet' });
      const m = await scrape();
      expect(m.get('orders_total')).toEqual({ name: 'orders_total', help: 'Orders taken.', type: 'COUNTER', metrics: [{ value: '2', labels: { shop: 'north', kind: 'web' } }, { value: '1', labels: { shop: 'south', kind: 'web' } }] });
      expect(m.get('basket_size')!.type).toBe('GAUGE');
      expect(m.get('basket_size')!.metrics).toEqual([{ value: '3', labels: { shop: 'north' } }, { value: '0', labels: { shop: 'south' } }]);
      expect(m.get('checkout_seconds')!.metrics[0]).toMatchObject({ count: '3', sum: '0.8999999999999999' });
      const runs = m.get('pipewright_runs_total')!.metrics;
      expect(runs).toEqual(expect.arrayContaining([
        { value: '2', labels: { config: 'shop', interface: 'order', outcome: 'succeeded' } },
        { value: '1', labels: { config: 'shop', interface: 'order', outcome: 'failed' } },
        { value: '1', labels: { config: 'shop', interface: 'flaky', outcome: 'failed' } },
      ]));
      // The parser drops the labels of labelled histograms: read their count line as text.
      expect(m.get('pipewright_run_duration_seconds')!.type).toBe('HISTOGRAM');
      expect(text).toContain('pipewright_run_duration_seconds_count{config="shop",interface="order"} 3\n');
      // hide_metrics leaves the action out of the action metrics.
      expect(m.get('pipewright_action_failures_total')!.metrics).toEqual([{ value: '1', labels: { config: 'shop', interface: 'flaky', action: 'Visible' } }]);
    });

    it('caps the series of a metric whose labels come from requests', async () => {
      for (const shop of ['a', 'b', 'c', 'd', 'e']) await app.inject({ method: 'POST', url: '/order', payload: { shop, items: 1 } });
      const m = await scrape();
      expect(m.get('orders_total')!.metrics).toHaveLength(3);
      expect(m.get('pipewright_metric_series_dropped_total')!.metrics).toEqual(expect.arrayContaining([{ value: '4', labels: { metric: 'orders_total' } }]));
    });
  });
}

describe('check', () => {
  it('refuses bad names, reserved names, bad labels and a metric used two ways', () => {
    const c = compileConfig('m.yaml', `
expose_metrics: true
interfaces:
  a:
    actions:
      - { name: A, emit_metric: { name: "1bad" } }
      - { name: B, emit_metric: { name: pipewright_x } }
      - { name: C, emit_metric: { name: hits, type: counter, labels: { __x: y } } }
      - { name: D, emit_metric: { name: depth, labels: { q: a } } }
      - { name: E, emit_metric: { name: depth, type: histogram } }
      - { name: F, emit_metric: { name: level, labels: { q: a } } }
      - { name: G, emit_metric: { name: level, labels: { r: a } } }
`);
    expect(c.diagnostics.map((d) => `${d.line} ${d.severity}: ${d.message}`)).toEqual([
      '6 error: metric name "1bad" is not a Prometheus name',
      '7 error: metric name "pipewright_x" uses the reserved prefix pipewright_',
      '8 warning: counter "hits" does not end in _total',
      '8 error: label name "__x" of metric "hits" is not a Prometheus label name',
      '10 error: metric "depth" is a gauge in action "D" and a histogram here',
      '12 error: metric "level" has labels [q] in action "F" and [r] here',
    ]);
  });
});
