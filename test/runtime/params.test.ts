// Declared params, request to response on both paths: where a value comes from (value marker, the
// request, default_value), that it reaches the actions as text, and how a failed validation answers.
import { describe, expect, it } from 'vitest';
import { runBoth } from '../support/run-both.ts';

const cfg = (params: string) => `
interfaces:
  x:
    params:
${params}
    actions:
      - name: Echo
        input: { id: a|params::id|, limit: a|params::limit|, kind: a|params::kind| }
`;

describe('declared params', () => {
  const yaml = cfg(`      id:
        validate: { regex: "^[0-9]+$" }
      limit:
        default_value: 10
        validate: { is_less_than: 100 }
      kind:
        default_value: all
        error_message: kind must be short
        validate: { regex: "^[a-z]{1,5}$" }`);

  it('takes the request value, else default_value; an empty value counts as absent', async () => {
    const r = await runBoth(yaml, 'x', { params: { id: '7', limit: '', kind: 'new' } });
    expect(r.response).toEqual({ status: 200, headers: {}, body: { Echo: { id: '7', limit: '10', kind: 'new' } } });
    const d = await runBoth(yaml, 'x', { params: { id: '7' } });
    expect(d.response.body).toEqual({ Echo: { id: '7', limit: '10', kind: 'all' } });
  });

  it('checks every param: a later one fails with its error_message, or a message naming it and the reason', async () => {
    const kind = await runBoth(yaml, 'x', { params: { id: '7', kind: 'much-too-long' } });
    expect(kind.response).toEqual({ status: 400, headers: {}, body: { error: { status: 400, message: 'kind must be short' } } });
    const limit = await runBoth(yaml, 'x', { params: { id: '7', limit: '500' } });
    expect(limit.response.body).toEqual({ error: { status: 400, message: 'invalid parameter "limit": is_less_than 100: expected "500" to be less than 100' } });
  });

  it('a missing param is validated as null (no default)', async () => {
    const r = await runBoth(yaml, 'x', { params: {} });
    expect(r.response.body).toEqual({ error: { status: 400, message: 'invalid parameter "id": regex ^[0-9]+$: expected null to match \"^[0-9]+$\"' } });
  });

  it('a value marker supplies the param; a null or number it yields becomes the default or text', async () => {
    const v = cfg(`      id:
        value: a|body::n|
        default_value: none
      limit:
        value: a|body::missing|
        default_value: 5
      kind:
        value: a|body::k|`);
    const r = await runBoth(v, 'x', { body: { n: 42, k: null }, params: { id: 'ignored', limit: '9' } });
    expect(r.response.body).toEqual({ Echo: { id: '42', limit: '5', kind: null } });
    // A marker that yields nothing, with no default, leaves the request's own parameter in place.
    const kept = await runBoth(v, 'x', { body: { n: 1 }, params: { kind: 'asked' } });
    expect(kept.response.body).toEqual({ Echo: { id: '1', limit: '5', kind: 'asked' } });
  });
});
