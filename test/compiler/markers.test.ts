import { describe, expect, it } from 'vitest';
import { parseMarkers, parseRef } from '../../compiler/markers/parse.ts';

const ref = (s: string) => {
  const r = parseRef(s);
  if (r) delete (r as { src?: string }).src;
  return r;
};

describe('marker grammar', () => {
  it('reads every root of the spec', () => {
    expect(ref('body')).toEqual({ root: 'body', path: [] });
    expect(ref('raw_body')).toEqual({ root: 'raw_body', path: [] });
    expect(ref('params')).toEqual({ root: 'params', path: [] });
    expect(ref('params::id')).toEqual({ root: 'params', name: 'id', path: [] });
    expect(ref('headers')).toEqual({ root: 'headers', path: [] });
    expect(ref('header::X-Request-Id')).toEqual({ root: 'headers', name: 'X-Request-Id', path: [] });
    expect(ref('state::cursor')).toEqual({ root: 'state', name: 'cursor', path: [] });
    expect(ref('secret::TOKEN')).toEqual({ root: 'secret', name: 'TOKEN', path: [] });
    expect(ref('ap_secret::TOKEN')).toEqual({ root: 'ap_secret', name: 'TOKEN', path: [] });
    expect(ref('var::BASE')).toEqual({ root: 'var', name: 'BASE', path: [] });
    expect(ref('ap_var::BASE')).toEqual({ root: 'ap_var', name: 'BASE', path: [] });
    expect(ref('env::HOME')).toEqual({ root: 'env', name: 'HOME', path: [] });
    expect(ref('uuid')).toEqual({ root: 'uuid', path: [] });
  });

  it('reads actions: data, fields, HTTP facts and body paths', () => {
    expect(ref('Fetch')).toEqual({ root: 'action', name: 'Fetch', part: 'data', path: [] });
    expect(ref('Fetch::total')).toEqual({ root: 'action', name: 'Fetch', part: 'data', path: ['total'] });
    expect(ref('Fetch::status')).toEqual({ root: 'action', name: 'Fetch', part: 'status', path: [] });
    expect(ref('Fetch::headers')).toEqual({ root: 'action', name: 'Fetch', part: 'headers', path: [] });
    expect(ref('Fetch::body.items.0.id')).toEqual({ root: 'action', name: 'Fetch', part: 'body', path: ['items', 0, 'id'] });
    expect(ref('Fetch->orders')).toEqual({ root: 'action', name: 'Fetch', part: 'data', path: ['orders'] });
    expect(ref('Fetch->status')).toEqual({ root: 'action', name: 'Fetch', part: 'data', path: ['status'] });
  });

  it('reads body paths, -> paths and defaults', () => {
    expect(ref('body::user.id')).toEqual({ root: 'body', path: ['user', 'id'] });
    expect(ref('body->interface')).toEqual({ root: 'body', path: ['interface'] });
    expect(ref('body::a->b.c->0')).toEqual({ root: 'body', path: ['a', 'b', 'c', 0] });
    expect(ref('params::page->default(1)')).toEqual({ root: 'params', name: 'page', path: [], default: 1 });
    expect(ref('body::x->default("a|b")')).toEqual({ root: 'body', path: ['x'], default: 'a|b' });
    expect(ref('body::x->default(none)')).toEqual({ root: 'body', path: ['x'], default: 'none' });
    expect(ref('body::x->default([])')).toEqual({ root: 'body', path: ['x'], default: [] });
  });

  it('splits strings into text and references', () => {
    const parts = parseMarkers('https://api/a|params::id|/x?q=a|body::q|');
    expect(parts.map((p) => (typeof p === 'string' ? p : p.src))).toEqual(['https://api/', 'a|params::id|', '/x?q=', 'a|body::q|']);
  });

  it('leaves unclosed and embedded forms literal', () => {
    expect(parseMarkers('id=a|body')).toEqual(['id=a|body']);
    expect(parseMarkers('data|a|x')).toEqual(['data|a|x']);
    expect(parseMarkers('a|body::a b|').length).toBe(1);
    expect(parseMarkers('plain text')).toEqual(['plain text']);
  });

  it('accepts the bare form only when asked (input)', () => {
    expect(parseMarkers('a|Fetch', false)).toEqual(['a|Fetch']);
    const [r] = parseMarkers('a|Fetch', true);
    expect(typeof r === 'object' && r.name).toBe('Fetch');
  });
});
