// math through a config on both paths, request to response: the decimal_places bounds
// (0..20, as rounding supports), eval_type bool on "0"/"false", and null results staying null.
import { describe, expect, it } from 'vitest';
import { runBoth } from '../support/run-both.ts';

const math = async (args: string, body: unknown) => (await runBoth(`
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: M
        input: a|body|
        output: http
        post_transforms:
          - math: ${args}
`, 'x', { body })).response;

describe('math in a config', () => {
  it('decimal_places 20 is accepted and pads to 20 places; 21 is refused with a reason', async () => {
    expect((await math('{ expressions: { y: "target.x" }, decimal_places: 20, to_string: true }', { x: 1.5 })).body).toEqual({ x: 1.5, y: '1.50000000000000000000' });
    expect((await math('{ expressions: { y: "target.x / 3" }, decimal_places: 20 }', { x: 1 })).body).toEqual({ x: 1, y: 1 / 3 });
    // Past the 20th place: 1e-21 rounds to 0, 1.5e-20 half away from zero to 2e-20.
    expect((await math('{ expressions: { y: "target.a", z: "target.b" }, decimal_places: 20 }', { a: 1e-21, b: 1.5e-20 })).body).toEqual({ a: 1e-21, b: 1.5e-20, y: 0, z: 2e-20 });
    const r = await math('{ expressions: { y: "target.x" }, decimal_places: 21 }', { x: 1.5 });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: { status: 500, message: 'action "M" failed', action: 'M', detail: 'math: decimal_places must be a whole number from 0 to 20, got 21', data: { x: 1.5 } } });
  });

  it('decimal_places 0 rounds half away from zero; a negative count is refused', async () => {
    expect((await math('{ expressions: { y: "target.x" }, decimal_places: 0 }', { x: -2.5 })).body).toEqual({ x: -2.5, y: -3 });
    expect((await math('{ expressions: { y: "target.x" }, decimal_places: -1 }', { x: 1 })).status).toBe(500);
    expect((await math('{ expressions: { y: "target.x" }, decimal_places: 1.5 }', { x: 1 })).status).toBe(500);
    // From a marker the count arrives as text.
    expect((await math('{ expressions: { y: "target.x" }, decimal_places: a|body::p| }', { x: 1.005, p: '2' })).body).toEqual({ x: 1.005, p: '2', y: 1.01 });
  });

  it('in a selected array, only objects get fields: scalars, nulls and nested arrays pass through', async () => {
    const r = await math('{ target: "$.rows", expressions: { d: "target.a * 2" } }', { rows: [{ a: 1 }, [{ a: 2 }], 'x', null, 3] });
    expect(r.body).toEqual({ rows: [{ a: 1, d: 2 }, [{ a: 2 }], 'x', null, 3] });
  });

  it('eval_type bool reads "0", "false" and "" as false, other text as true', async () => {
    const r = await math('{ expressions: { a: "target.zero", b: "target.no", c: "target.empty", d: "target.yes", e: "target.n" }, eval_type: bool }', { zero: '0', no: ' FALSE ', empty: '', yes: 'yes', n: 0 });
    expect(r.body).toMatchObject({ a: false, b: false, c: false, d: true, e: false });
  });

  it('a missing or non-finite result is null whatever the eval_type', async () => {
    for (const t of ['bool', 'int', 'string', 'float']) {
      const r = await math(`{ expressions: { y: "target.missing + 1", z: "1 / target.zero" }, eval_type: ${t} }`, { zero: 0 });
      expect(r.body).toEqual({ zero: 0, y: null, z: null });
    }
  });

  it('eval_type int truncates toward zero; string gives text', async () => {
    expect((await math('{ expressions: { a: "target.x", b: "0 - target.x" }, eval_type: int }', { x: 2.7 })).body).toEqual({ x: 2.7, a: 2, b: -2 });
    expect((await math('{ expressions: { a: "target.x * 2" }, eval_type: string }', { x: 2.5 })).body).toEqual({ x: 2.5, a: '5' });
  });
});
