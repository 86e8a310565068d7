// TransformConfig conversions: both config shapes, round trips of every encode/decode pair, and
// malformed input failing with a TransformError.
import { describe, expect, it } from 'vitest';
import { failure, frozen, t } from './helpers.ts';

describe('TransformConfig shapes', () => {
  it('a path converts in place; "" and "$" are the data itself', () => {
    const data = frozen({ a: { s: 'aGk=' }, keep: 1 });
    expect(t('b64_decode', data, 'a.s')).toEqual({ a: { s: 'hi' }, keep: 1 });
    expect(t('b64_decode', data, '$.a.s')).toEqual({ a: { s: 'hi' }, keep: 1 });
    expect(data.a.s).toBe('aGk='); // the input is not mutated
    expect(t('b64_decode', 'aGk=', '')).toBe('hi');
    expect(t('b64_decode', 'aGk=', '$')).toBe('hi');
  });
  it('a path applies to each object element of an array', () => {
    expect(t('b64_encode', frozen([{ s: 'a' }, { s: 'b' }, 3, { x: 1 }]), 's')).toEqual([{ s: 'YQ==' }, { s: 'Yg==' }, 3, { x: 1 }]);
  });
  it('{key, json_path} reads and writes under key, leaving the source', () => {
    expect(t('b64_encode', frozen({ s: 'hi' }), { key: 'out.b64', json_path: (d: any) => d.s })).toEqual({ s: 'hi', out: { b64: 'aGk=' } });
    expect(t('b64_encode', frozen({ s: 'hi' }), { key: 'b', json_path: '$.s' })).toEqual({ s: 'hi', b: 'aGk=' });
  });
  it('null or absent gives null', () => {
    expect(t('b64_decode', frozen({ s: null }), 's')).toEqual({ s: null });
    expect(t('b64_decode', frozen({}), 's')).toEqual({});
    expect(t('b64_decode', frozen({}), { key: 'k', json_path: () => undefined })).toEqual({ k: null });
  });
  it('bad config shapes fail cleanly', async () => {
    await failure('b64_decode', {}, 42);
    await failure('b64_decode', {}, { key: 'k' });
    await failure('b64_decode', {}, 'items[*].x');
    await failure('b64_decode', 'text', 'a.b');
  });
});

describe('round trips', () => {
  const texts = ['', 'plain', 'ünïcødé ✓ 🎉', 'a/b?c=d&e=f#g h+i%', '{"json":true}', '\0\n\t'];
  it('b64_encode / b64_decode', () => {
    for (const s of texts) expect(t('b64_decode', t('b64_encode', s, ''), '')).toBe(s);
  });
  it('b64_encode / b64_decode_as_json for non-text values', () => {
    for (const v of [{ a: [1, 2, { b: null }] }, [1, 'x'], 12.5, true]) expect(t('b64_decode_as_json', t('b64_encode', v, ''), '')).toEqual(v);
  });
  it('encode_uri_component / decode_uri_component and encode_uri / decode_uri', () => {
    for (const s of texts) {
      expect(t('decode_uri_component', t('encode_uri_component', s, ''), '')).toBe(s);
      expect(t('decode_uri', t('encode_uri', s, ''), '')).toBe(s);
    }
    expect(t('encode_uri_component', 'a/b c', '')).toBe('a%2Fb%20c');
    expect(t('encode_uri', 'https://x.io/a b?q=1&r=é', '')).toBe('https://x.io/a%20b?q=1&r=%C3%A9');
    expect(t('encode_uri_component', 42, '')).toBe('42');
  });
  it('parse_csv / to_csv', () => {
    const rows = [{ id: '0012', name: 'Ann, "the" first', note: 'line\nbreak' }, { id: '7', name: 'Bo', note: '' }];
    const csv = t('to_csv', frozen(rows), '');
    expect(csv.split('\n')[0]).toBe('id,name,note');
    expect(t('parse_csv', csv, '')).toEqual(rows);
  });
  it('to_csv takes columns from the first row and writes nested values as JSON', () => {
    expect(t('to_csv', [{ a: 1, b: { c: true } }, { b: null, z: 9 }], '')).toBe('a,b\n1,"{""c"":true}"\n,\n');
    expect(t('to_csv', [], '')).toBe('');
  });
  it('yaml_to_json', () => {
    const yaml = 'name: pipewright\nlist:\n  - 1\n  - "two"\nnested: {a: null, b: true}\nzip: "0012"\n';
    expect(t('yaml_to_json', yaml, '')).toEqual({ name: 'pipewright', list: [1, 'two'], nested: { a: null, b: true }, zip: '0012' });
    expect(t('yaml_to_json', frozen({ cfg: 'a: 1' }), 'cfg')).toEqual({ cfg: { a: 1 } });
    expect(t('yaml_to_json', '', '')).toBeNull();
  });
  it('generate_slug', () => {
    expect(t('generate_slug', '  Hello, Wörld & Friends!  ', '')).toBe('hello-world-and-friends');
    expect(t('generate_slug', frozen({ title: 'Crème Brûlée -- 2024' }), { key: 'slug', json_path: '$.title' }).slug).toBe('creme-brulee-2024');
  });
});

describe('malformed input fails cleanly', () => {
  it('base64', async () => {
    for (const bad of ['@@@@', 'a', 'aGk=x', 'Pz4/Pz4_', 'YQ===', 'Y=Q=']) await failure('b64_decode', bad, '');
    await failure('b64_decode', '/w==', ''); // 0xff is not UTF-8
    await failure('b64_decode_as_json', 'bm90IGpzb24=', ''); // "not json"
    await failure('b64_decode', 42, '');
  });
  it('accepts URL-safe, unpadded and line-wrapped base64', () => {
    expect(t('b64_decode', 'Pz4_Pz4', '')).toBe('?>??>');
    expect(t('b64_decode', 'Pz4/Pz4=', '')).toBe('?>??>');
    expect(t('b64_decode', 'aGVs\nbG8=', '')).toBe('hello');
    expect(t('b64_decode', 'aGk', '')).toBe('hi');
  });
  it('csv', async () => {
    await failure('parse_csv', 'a,b\n1,2,3\n', '');
    await failure('parse_csv', 'a,b\n"1,2\n', '');
    await failure('parse_csv', 'a,a\n1,2\n', '');
    await failure('to_csv', { not: 'rows' }, '');
    await failure('to_csv', [1, 2], '');
  });
  it('yaml', async () => {
    await failure('yaml_to_json', 'a: b: c', '');
    await failure('yaml_to_json', 'a: 1\n---\nb: 2\n', '');
    await failure('yaml_to_json', 'a: 1\na: 2\n', '');
    const bomb = 'a: &a [x,x,x,x,x,x,x,x,x]\n' + Array.from({ length: 8 }, (_, i) => `${'bcdefghi'[i]}: &${'bcdefghi'[i]} [${Array(9).fill('*' + 'abcdefgh'[i]).join(',')}]`).join('\n');
    await failure('yaml_to_json', bomb, '');
  });
  it('uri', async () => {
    await failure('decode_uri_component', '%E0%A4%A', '');
    await failure('decode_uri', '%zz', '');
    await failure('encode_uri_component', '\ud800', '');
    await failure('encode_uri', { a: 1 }, '');
  });
});
