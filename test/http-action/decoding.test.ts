// Response decoding: declared data_type, inference from content-type, and the null cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { ctx, startUpstream, type Route } from './helpers.ts';

const send = (type: string | undefined, body: string | Buffer, status = 200): Route => (_q, res) => {
  res.writeHead(status, type ? { 'content-type': type } : {});
  res.end(body);
};

describe('response decoding', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    up = await startUpstream({
      '/json': send('application/json; charset=utf-8', '{"a":[1,2]}'),
      '/problem': send('application/problem+json', '{"title":"x"}'),
      '/badjson': send('application/json', '<html>oops</html>'),
      '/ndjson': send('application/x-ndjson', '{"a":1}\n\n{"a":2}\n'),
      '/csv': send('text/csv', '\uFEFFid,name\n1,"a, b"\n2,c\n'),
      '/xml': send('application/xml', '<?xml version="1.0"?><r v="1"><i>007</i><i>2</i><n a="x">t</n><e/></r>'),
      '/badxml': send('text/xml', '<r><i></r>'),
      '/text': send('text/plain', 'hello'),
      '/untyped': send(undefined, '{"looks":"json"}'),
      '/latin1': send('text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9])),
      '/204': send('application/json', '', 204),
      '/304': (_q, res) => { res.writeHead(304, { etag: '"v1"' }); res.end(); },
      '/empty': send('application/json', ''),
      '/badnd': send('application/x-ndjson', '{"a":1}\n  \n{"a":2}\nnot json\n'),
      '/spaced-nd': send('application/x-ndjson', '{"a":1}\n \t\n{"a":2}'),
      '/gappy-csv': send('text/csv', 'id,name\n1,a\n\n2,b\n'),
      '/ragged-csv': send('text/csv', 'id,name\n1\n'),
      '/pi-xml': send('application/xml', '<?xml version="1.0"?><?style sheet?><r><i>1</i></r>'),
      '/deep': send('application/json', '['.repeat(300) + ']'.repeat(300)),
      '/html-500': send('text/html', '<html>down</html>', 500),
      '/bom': send('text/plain', '\uFEFFhello'),
      '/quoted': send('text/plain; charset="ISO-8859-1"', Buffer.from([0x63, 0x61, 0x66, 0xe9])),
      '/spaced': send('text/plain ;  CHARSET = iso-8859-1 ; format=flowed', Buffer.from([0x63, 0x61, 0x66, 0xe9])),
      '/unknown-charset': send('text/plain; charset=x-no-such', 'caf\u00e9'),
    });
  });
  afterAll(async () => { await closeHttpPools(); await up.close(); });
  const get = (path: string, extra: Record<string, unknown> = {}) => http({ url: up.url + path, ...extra }, ctx());

  it('infers JSON from application/json and +json', async () => {
    expect((await get('/json')).data).toEqual({ a: [1, 2] });
    expect((await get('/problem')).data).toEqual({ title: 'x' });
  });

  it('falls back to text when an inferred JSON body does not parse', async () => {
    expect(await get('/badjson')).toMatchObject({ ok: true, data: '<html>oops</html>' });
  });

  it('fails a declared json body that does not parse, keeping the text', async () => {
    const out = await get('/badjson', { data_type: 'json' });
    expect(out).toMatchObject({ ok: false, status: 200, data: '<html>oops</html>', failure: { kind: 'other' } });
    expect(out.error).toMatch(/^response body is not valid json: .* \(GET http:\/\/127\.0\.0\.1:\d+\/badjson\)$/);
  });

  it('decodes ndjson (inferred and via each spelling) to an array', async () => {
    expect((await get('/ndjson')).data).toEqual([{ a: 1 }, { a: 2 }]);
    for (const t of ['ndjson', 'jsonl', 'json_lines']) expect((await get('/text', { data_type: t })).ok).toBe(false);
    expect((await get('/json', { data_type: 'jsonl' })).data).toEqual([{ a: [1, 2] }]);
  });

  it('decodes csv to header-keyed rows of strings', async () => {
    expect((await get('/csv')).data).toEqual([{ id: '1', name: 'a, b' }, { id: '2', name: 'c' }]);
    expect((await get('/text', { data_type: 'csv' })).data).toEqual([]); // header only, no rows
  });

  it('decodes xml to an object (attributes @_, repeated elements as arrays, strings kept)', async () => {
    expect((await get('/xml')).data).toEqual({ r: { '@_v': '1', i: ['007', '2'], n: { '#text': 't', '@_a': 'x' }, e: '' } });
    expect((await get('/badxml')).data).toBe('<r><i></r>'); // inferred: text fallback
    const declared = await get('/badxml', { data_type: 'xml' });
    expect(declared).toMatchObject({ ok: false, data: '<r><i></r>' });
    expect(declared.error).toMatch(/^response body is not valid xml/);
  });

  it('lets a declared data_type override the content-type', async () => {
    expect((await get('/untyped')).data).toBe('{"looks":"json"}');
    expect((await get('/untyped', { data_type: 'json' })).data).toEqual({ looks: 'json' });
    expect((await get('/json', { data_type: 'text' })).data).toBe('{"a":[1,2]}');
  });

  it('honours the response charset for text', async () => {
    expect((await get('/latin1')).data).toBe('café');
  });

  it('decodes 204, 304 and empty bodies to null without failing, even with data_type json', async () => {
    for (const p of ['/204', '/304', '/empty']) {
      const out = await get(p, { data_type: 'json' });
      expect(out.ok, p).toBe(true);
      expect(out.data, p).toBeNull();
    }
    expect((await get('/304')).headers?.etag).toBe('"v1"');
  });

  it('ndjson skips blank and whitespace-only lines; a bad line is named by its number when the type is declared', async () => {
    expect((await get('/spaced-nd')).data).toEqual([{ a: 1 }, { a: 2 }]);
    expect((await get('/badnd')).data).toBe('{"a":1}\n  \n{"a":2}\nnot json\n'); // inferred: text fallback
    const out = await get('/badnd', { data_type: 'ndjson' });
    expect(out).toMatchObject({ ok: false, data: '{"a":1}\n  \n{"a":2}\nnot json\n' });
    expect(out.error).toMatch(/^response body is not valid ndjson: line 4: Unexpected token .* \(GET http:\/\/127\.0\.0\.1:\d+\/badnd\)$/);
  });

  it('csv skips empty lines; a row with another column count fails a declared csv', async () => {
    expect((await get('/gappy-csv')).data).toEqual([{ id: '1', name: 'a' }, { id: '2', name: 'b' }]);
    const out = await get('/ragged-csv', { data_type: 'csv' });
    expect(out).toMatchObject({ ok: false, data: 'id,name\n1\n' });
    expect(out.error).toMatch(/^response body is not valid csv: /);
  });

  it('xml drops processing instructions; a declared xml error names its line', async () => {
    expect((await get('/pi-xml')).data).toEqual({ r: { i: '1' } });
    expect((await get('/badxml', { data_type: 'xml' })).error).toMatch(/^response body is not valid xml: .+ \(line 1\) \(GET /);
  });

  it('json nested past the bound is not parsed: text when inferred, an error when declared', async () => {
    const deep = '['.repeat(300) + ']'.repeat(300);
    expect(await get('/deep')).toMatchObject({ ok: true, data: deep });
    const out = await get('/deep', { data_type: 'json' });
    expect(out).toMatchObject({ ok: false, data: deep });
    expect(out.error).toMatch(/^response body is not valid json: nests deeper than 256 levels \(GET /);
  });

  it('a failed status keeps an undecodable body as text and reports the status, not the decoding', async () => {
    const out = await get('/html-500', { data_type: 'json' });
    expect(out).toMatchObject({ ok: false, status: 500, data: '<html>down</html>' });
    expect(out.error).toMatch(/^HTTP 500 from GET /);
  });

  it('charset: quoted, spaced or upper-case names are honoured; an unknown one reads as UTF-8; a BOM is dropped', async () => {
    expect((await get('/quoted')).data).toBe('café');
    expect((await get('/spaced')).data).toBe('café');
    expect((await get('/unknown-charset')).data).toBe('café');
    expect((await get('/bom')).data).toBe('hello');
  });
});
