// multipart/form-data: what a real parser (undici's Response.formData) reads from the received bytes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Response } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { ctx, startUpstream } from './helpers.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

describe('multipart', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  let dir: string;
  const raw: Buffer[] = [];
  beforeAll(async () => {
    up = await startUpstream({ '/upload': (_q, res, body) => { raw.push(body); res.end('ok'); } });
    dir = await mkdtemp(join(tmpdir(), 'pw-multipart-'));
    await writeFile(join(dir, 'report.pdf'), PNG);
    await writeFile(join(dir, 'data'), 'no extension');
  });
  afterEach(() => { delete process.env.SERVICE__MANAGED_MODE; delete process.env.SERVICE__OUTBOUND_ALLOW; });
  afterAll(async () => { await closeHttpPools(); await up.close(); await rm(dir, { recursive: true }); });

  const post = (extra: Record<string, unknown>) => http({ url: `${up.url}/upload`, method: 'POST', ...extra }, ctx());
  /** The last request's parts, as a spec-conforming parser sees them. */
  async function parts() {
    const form = await new Response(raw[raw.length - 1], { headers: { 'content-type': String(up.last().headers['content-type']) } }).formData();
    const out: Record<string, string | { name: string; type: string; bytes: Buffer }> = {};
    for (const [k, v] of form) out[k] = typeof v === 'string' ? v : { name: v.name, type: v.type, bytes: Buffer.from(await v.arrayBuffer()) };
    return out;
  }

  it('sends text, base64 and file parts that parse back exactly', async () => {
    const out = await post({ multipart: [
      { name: 'title', value: 'Q3 report — ünïcode' },
      { name: 'meta', value: '{"a":1}\n', mime: 'application/json' },
      { name: 'image', b64: PNG.toString('base64'), filename: 'pic.PNG' },
      { name: 'blob', b64: PNG.toString('base64') },
      { name: 'doc', file_path: join(dir, 'report.pdf') },
      { name: 'other', file_path: join(dir, 'data'), filename: 'renamed.csv', mime: 'text/csv; charset=utf-8' },
    ] });
    expect(out.ok).toBe(true);
    expect(up.last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const p = await parts();
    expect(p.title).toBe('Q3 report — ünïcode');
    expect(p.meta).toBe('{"a":1}\n'); // sent as a Blob: bytes exact, no CRLF normalisation
    expect(p.image).toEqual({ name: 'pic.PNG', type: 'image/png', bytes: PNG });
    expect(p.doc).toEqual({ name: 'report.pdf', type: 'application/pdf', bytes: PNG });
    expect(p.other).toEqual({ name: 'renamed.csv', type: 'text/csv; charset=utf-8', bytes: Buffer.from('no extension') });
    // No filename: the parser reads it as a field, so check the raw part headers.
    const text = raw[raw.length - 1].toString('latin1');
    expect(text).toContain('Content-Disposition: form-data; name="blob"\r\nContent-Type: application/octet-stream\r\n\r\n');
    expect(text).toContain('Content-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n');
    expect(text).toContain('Content-Disposition: form-data; name="title"\r\n\r\n');
  });

  it('refuses file_path in managed mode, before sending; b64 still works', async () => {
    process.env.SERVICE__MANAGED_MODE = '1';
    process.env.SERVICE__OUTBOUND_ALLOW = '127.0.0.0/8'; // managed mode denies loopback otherwise
    const n = up.received.length;
    const out = await post({ multipart: [{ name: 'doc', file_path: join(dir, 'report.pdf') }] });
    expect(out).toMatchObject({ ok: false, failure: { kind: 'other' } });
    expect(out.error).toBe('http.multipart[0].file_path is not allowed in managed mode; send the content as b64');
    const legacy = await post({ multipart_files: [{ file_path: join(dir, 'report.pdf'), file_name: 'r.pdf' }] });
    expect(legacy.error).toMatch(/multipart_files\[0\]\.file_path is not allowed in managed mode/);
    expect(up.received.length).toBe(n);
    expect((await post({ multipart: [{ name: 'x', b64: 'AAE=' }] })).ok).toBe(true);
  });

  it('maps the legacy multipart_form and multipart_files shapes', async () => {
    const out = await post({
      multipart_form: [{ key: 'note', value: 'hi' }, { key: 'cfg', value: '<a/>', mime_str: 'application/xml' }],
      multipart_files: [
        { file_path: '/not/read/when/b64', file_name: 'a.png', b64: PNG.toString('base64') },
        { file_path: join(dir, 'report.pdf'), file_name: 'r.bin', mime_str: 'application/x-custom', part_name: 'attachment' },
      ],
    });
    expect(out.ok).toBe(true);
    const p = await parts();
    expect(p.note).toBe('hi');
    expect(p.cfg).toBe('<a/>');
    expect(p.file).toEqual({ name: 'a.png', type: 'image/png', bytes: PNG });
    expect(p.attachment).toEqual({ name: 'r.bin', type: 'application/x-custom', bytes: PNG });
  });

  it('rejects malformed parts and conflicting bodies before sending', async () => {
    const n = up.received.length;
    const err = async (extra: Record<string, unknown>) => (await post(extra)).error;
    expect(await err({ multipart: [{ name: 'a', value: 'x', b64: 'AA==' }] })).toBe('http.multipart[0] needs exactly one of value, b64, file_path (got value, b64)');
    expect(await err({ multipart: [{ value: 'x' }] })).toBe('http.multipart[0].name is required');
    expect(await err({ multipart: [{ name: 'a', b64: 'no!' }] })).toBe('http.multipart[0].b64 is not valid base64');
    expect(await err({ multipart: [{ name: 'a', value: 'x' }], body: { a: 1 } })).toBe('set only one request body: body/base64_bytes, multipart');
    expect(await err({ multipart: [{ name: 'a', value: 'x' }], headers: { 'Content-Type': 'multipart/form-data' } })).toMatch(/sets its own content-type/);
    expect(await err({ multipart: [{ name: 'a', file_path: join(dir, 'missing') }] })).toMatch(/file_path: cannot read .*missing: ENOENT/);
    expect(await err({ multipart_files: [{ file_path: 'x' }] })).toBe('http.multipart_files[0].file_name is required');
    expect(up.received.length).toBe(n);
  });
});
