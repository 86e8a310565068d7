// A filter over nested targets (`$..items`) whose condition runs a jq regex (awaited on the worker
// pool): the outer array's elements are rebuilt around the filtered inner ones, and the filter still
// ends, with the same answer in both paths as a condition without a regex.
import { beforeAll, describe, expect, it } from 'vitest';
import { initJq } from '../../runtime/jq/engine.ts';
import { runBoth } from '../support/run-both.ts';

beforeAll(async () => { await initJq(); });

const config = (jq: string) => `
interfaces:
  x:
    actions:
      - name: A
        input: a|body|
        post_transforms:
          - filter:
              target: $..items
              conditions:
                name:
                  jq: '${jq}'
                  is_equal_to: true
        output: http
`;

const body = { items: [{ name: 'ab', items: [{ name: 'ac' }, { name: 'b' }] }, { name: 'b', items: [] }, { name: 'ad', items: [] }] };
const want = { items: [{ name: 'ab', items: [{ name: 'ac' }] }, { name: 'ad', items: [] }] };

describe('filter with a regex condition over nested targets', () => {
  it('ends and keeps what the same condition without a regex keeps', async () => {
    const plain = await runBoth(config('startswith("a")'), 'x', { body });
    expect(plain.response.body).toEqual(want);
    const regex = await runBoth(config('test("^a")'), 'x', { body });
    expect(regex.response.status).toBe(200);
    expect(regex.response.body).toEqual(want);
  }, 20_000);
});
