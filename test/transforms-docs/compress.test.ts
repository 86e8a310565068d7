import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { run as compress } from '../../runtime/transforms/compress.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { run as decompress } from '../../runtime/transforms/decompress.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { at, frozen, refuses, scope } from './helpers.ts';

const pack = (data: unknown, args: Record<string, unknown>) => compress(data, { value: at('v'), key: 'z', ...args }, scope) as any;
const unpack = (data: unknown, args: Record<string, unknown>) => decompress(data, { value: at('z'), key: 'out', ...args }, scope) as any;

const algorithms = ['gzip', 'zlib', 'deflate'] as const;
const encodings = ['base64', 'base64url', 'hex'] as const;
const text = 'héllo 😀 𝄞 wörld '.repeat(50);

describe('compress / decompress', () => {
  it('lowers value as a path', () => expect(transformSpecs.compress).toEqual({ fields: { value: 'path' } }));

  for (const algorithm of algorithms)
    for (const encoding of encodings)
      it(`round trips ${algorithm} × ${encoding}`, () => {
        const packed = pack(frozen({ v: text, keep: 1 }), { algorithm, encoding });
        expect(packed.keep).toBe(1);
        expect(packed.z.length).toBeLessThan(Buffer.byteLength(text));
        if (encoding === 'hex') expect(packed.z).toMatch(/^[0-9a-f]+$/);
        if (encoding === 'base64url') expect(packed.z).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(unpack(frozen(packed), { algorithm, encoding }).out).toBe(text);
      });

  it('uses the formats on the wire: gzip magic, zlib header, raw deflate; default gzip + base64', () => {
    const z = (algorithm?: string) => Buffer.from(pack({ v: 'x' }, algorithm ? { algorithm } : {}).z, 'base64');
    expect(z().subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(z('zlib')[0]).toBe(0x78);
    expect(z('deflate').subarray(0, 2)).not.toEqual(Buffer.from([0x1f, 0x8b]));
    expect(unpack({ z: gzipSync('from elsewhere').toString('base64') }, {}).out).toBe('from elsewhere');
  });

  it('reads the two base64 alphabets interchangeably, with or without padding and line breaks', () => {
    const b64 = gzipSync(Buffer.from('?>?>~~~'.repeat(40))).toString('base64');
    const url = Buffer.from(b64, 'base64').toString('base64url');
    for (const [z, encoding] of [[url, 'base64'], [b64, 'base64url'], [b64.replace(/(.{20})/g, '$1\n'), 'base64']])
      expect(unpack({ z }, { encoding }).out).toBe('?>?>~~~'.repeat(40));
  });

  it('compresses non-strings as compact JSON and gives them back with json: true', () => {
    const v = JSON.parse('{"a":[1,2.5,null,true],"__proto__":{"x":1},"s":"é"}');
    const packed = pack(frozen({ v }), {});
    expect(unpack(packed, {}).out).toBe(JSON.stringify(v));
    const back = unpack(packed, { json: true }).out;
    expect(back).toEqual(v);
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
    expect(({} as any).x).toBeUndefined();
  });

  it('value "" compresses the whole data; non-object data becomes {key: result}', () => {
    const packed = compress(frozen([1, 2, 3]), { value: at(''), key: 'z' }, scope) as any;
    expect(Object.keys(packed)).toEqual(['z']);
    expect(unpack(packed, { json: true }).out).toEqual([1, 2, 3]);
    expect((decompress(packed.z, { value: at(''), key: 'out' }, scope) as any).out).toBe('[1,2,3]');
  });

  it('writes a dotted key nested, an own __proto__ key safely, and an absent or null value as null', () => {
    expect(compress({ v: 'a', m: { n: 1 } }, { value: at('v'), key: 'm.z' }, scope)).toMatchObject({ m: { n: 1, z: expect.any(String) } });
    const out = compress({ v: 'a' }, { value: at('v'), key: '__proto__' }, scope) as any;
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(pack({}, {}).z).toBeNull();
    expect(pack({ v: null }, {}).z).toBeNull();
    expect(unpack({ z: null }, {}).out).toBeNull();
  });

  it('levels 0 to 9: 0 stores, 9 packs tighter; anything else is refused', async () => {
    const v = 'abcabcabc'.repeat(2000);
    const size = (level: number) => pack({ v }, { level, encoding: 'hex' }).z.length;
    expect(size(0)).toBeGreaterThan(v.length * 2);
    expect(size(9)).toBeLessThanOrEqual(size(1));
    for (const level of [-1, 10, 1.5, '6']) await refuses(() => pack({ v }, { level }), /level must be a whole number from 0 to 9/);
  });

  it('refuses unknown algorithms, encodings and a non-boolean json', async () => {
    await refuses(() => pack({ v: 'a' }, { algorithm: 'brotli' }), /algorithm must be gzip, zlib or deflate/);
    await refuses(() => pack({ v: 'a' }, { encoding: 'base32' }), /encoding must be base64, base64url, hex/);
    await refuses(() => unpack({ z: 'a' }, { json: 'yes' }), /json must be true or false/);
    await refuses(() => compress({}, { value: at('v') }, scope), /key must name the output field/);
    await refuses(() => compress({}, { value: 'v', key: 'k' }, scope), /value must be a path/);
  });

  it('malformed text fails cleanly instead of decoding to other bytes', async () => {
    const good = pack({ v: 'hello' }, {}).z as string;
    // 'ab+_': both alphabets at once, refused like every other strict base64 decoder's input.
    for (const z of [good.slice(0, -1) + '!', 'abc=d', 'a', '====', good + '=', 'ab+_', 42, { x: 1 }])
      await refuses(() => unpack({ z }, {}), /not valid base64|must be base64 text/);
    await refuses(() => unpack({ z: 'abc' }, { encoding: 'hex' }), /not valid hex/);
    await refuses(() => unpack({ z: 'zz' }, { encoding: 'hex' }), /not valid hex/);
  });

  it('bad compressed data, the wrong algorithm, binary output and bad JSON fail cleanly', async () => {
    await refuses(() => unpack({ z: Buffer.from('plain text').toString('base64') }, {}), /not valid gzip data/);
    await refuses(() => unpack(pack({ v: 'x' }, { algorithm: 'zlib' }), {}), /not valid gzip data/);
    await refuses(() => unpack({ z: gzipSync(Buffer.from('abc')).subarray(0, 12).toString('base64') }, {}), /not valid gzip data/);
    await refuses(() => unpack({ z: gzipSync(Buffer.from([0xff, 0xfe, 0x80])).toString('base64') }, {}), /not UTF-8 text/);
    await refuses(() => unpack(pack({ v: '{nope' }, {}), { json: true }), /not JSON/);
  });

  it('refuses a zip bomb without expanding it (a small gzip inflating past the bound)', async () => {
    const bomb = gzipSync(Buffer.alloc(9 * 1024 * 1024)); // 9 MiB of zeros in ~9 KB
    expect(bomb.length).toBeLessThan(20_000);
    const t = performance.now();
    await refuses(() => unpack({ z: bomb.toString('base64') }, {}), /exceeds max_compress_bytes \(8388608\); refused/);
    await refuses(() => unpack({ z: gzipSync(Buffer.alloc(2000)).toString('base64') }, { max_compress_bytes: 1000 }), /exceeds max_compress_bytes \(1000\)/);
    expect(performance.now() - t).toBeLessThan(1000);
    expect(unpack({ z: gzipSync(Buffer.alloc(1000)).toString('base64') }, { max_compress_bytes: 1000 }).out).toHaveLength(1000);
  });

  it('bounds the input of both directions by max_compress_bytes', async () => {
    await refuses(() => pack({ v: 'x'.repeat(1001) }, { max_compress_bytes: 1000 }), /1001 bytes, over max_compress_bytes \(1000\)/);
    await refuses(() => pack({ v: 'é'.repeat(501) }, { max_compress_bytes: 1000 }), /1002 bytes/);
    expect(pack({ v: 'x'.repeat(1000) }, { max_compress_bytes: '1000' }).z).toEqual(expect.any(String));
    await refuses(() => unpack({ z: 'A'.repeat(1400) }, { max_compress_bytes: 1000 }), /1050 bytes, over max_compress_bytes/);
    for (const max of [0, -1, 1.5, 'big', 2 ** 40]) await refuses(() => pack({ v: 'x' }, { max_compress_bytes: max }), /max_compress_bytes must be a whole number/);
  });
});

describe('compress / decompress in a config, both paths', () => {
  const yaml = `
interfaces:
  roundtrip:
    actions:
      - name: Out
        input: a|body|
        post_transforms:
          - compress: { value: "items", key: packed, algorithm: deflate, encoding: base64url, level: 9 }
          - remove_attributes: [items]
          - decompress: { value: packed, key: items, algorithm: deflate, json: true }
`;
  it('gives the same bytes compiled and interpreted', async () => {
    const body = { items: [{ id: 1, name: 'ü😀' }, { id: 2 }] };
    const out: string[] = [];
    for (const mode of ['compiled', 'interpreted'] as const) {
      const plan = await planOf('compress.yaml', mode, yaml);
      const i = plan.interfaces[0]!;
      const r = await executeInterface(plan, i, { method: 'POST', path: '/', params: {}, headers: {}, body, rawBody: JSON.stringify(body) }, { trigger: 'test', env: testEnv(), services: { clock: systemClock } });
      expect(r.response.status).toBe(200);
      expect((r.response.body as any).Out.items).toEqual(body.items);
      out.push(JSON.stringify(r.response));
    }
    expect(out[1]).toBe(out[0]);
  });
});
