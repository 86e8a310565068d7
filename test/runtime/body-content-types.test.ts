// Request bodies are read as text by one parser, named for application/json and as the catch-all
// (runtime/server/app.ts): every spelling of a JSON type decodes as JSON, other types as before.
import { afterAll, describe, expect, it } from 'vitest';
import { planOf, serveOn, testEnv } from '../support/plans.ts';

const yaml = `
interfaces:
  echo:
    method: POST
    actions: [{ name: Echo, input: a|body|, output: http }]
`;

describe('request body content types', async () => {
  const { app, url } = await serveOn([await planOf('echo.yaml', 'compiled', yaml)], testEnv());
  afterAll(() => app.close());
  const post = async (type: string, body: string) => {
    const r = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': type }, body });
    return { status: r.status, text: await r.text() };
  };

  it('decodes JSON under every spelling of a JSON type, twice in a row (the parser cached)', async () => {
    for (const type of ['application/json', 'application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/problem+json']) {
      expect(await post(type, '[1,{"a":2}]'), type).toEqual({ status: 200, text: '[1,{"a":2}]' });
    }
    expect((await post('application/json', '[1,')).status).toBe(400);
  });

  it('keeps form and text bodies as they were', async () => {
    expect(await post('application/x-www-form-urlencoded', 'a=1&b=x')).toEqual({ status: 200, text: '{"a":"1","b":"x"}' });
    expect((await post('text/plain', 'hello')).text).toBe('hello');
  });
});
