// extract_with_css, extract_with_regex, replace_values and flatten.
import { describe, expect, it } from 'vitest';
import { clean, failure, frozen, hostile, t } from './helpers.ts';

const PAGE = `<!doctype html><html><head><title>Shop &amp; Co</title>
<meta property="og:image" content="https://cdn.example/p.png"></head><body>
<nav><a href="/">Home</a><a href="/sale" class="hot">Sale</a></nav>
<ul id="products">
  <li class="product" data-sku="A1"><h2>  Kettle  </h2><span class="price">€29.90</span><a href="/p/a1">more</a></li>
  <li class="product" data-sku="B2"><h2>Toaster</h2><span class="price">€49.00</span><a>no link</a></li>
  <li class="product sold-out"><h2>Mixer <em>Pro</em></h2></li>
</ul></body></html>`;

describe('extract_with_css', () => {
  it('first match text, trimmed; absent gives null', () => {
    expect(t('extract_with_css', PAGE, { value: '', selector: 'title', key: 'title' })).toEqual({ title: 'Shop & Co' });
    expect(t('extract_with_css', PAGE, { selector: '.product h2', key: 'name' })).toEqual({ name: 'Kettle' });
    expect(t('extract_with_css', PAGE, { value: '', selector: 'table', key: 'x' })).toEqual({ x: null });
  });
  it('all, attribute (missing -> null) and inner html', () => {
    expect(t('extract_with_css', PAGE, { value: '', selector: 'li.product', attribute: 'data-sku', key: 'skus', all: true }).skus).toEqual(['A1', 'B2', null]);
    expect(t('extract_with_css', PAGE, { value: '', selector: '.product a', attribute: 'href', key: 'links', all: true }).links).toEqual(['/p/a1', null]);
    expect(t('extract_with_css', PAGE, { value: '', selector: 'meta[property="og:image"]', attribute: 'content', key: 'img' }).img).toBe('https://cdn.example/p.png');
    expect(t('extract_with_css', PAGE, { value: '', selector: '.sold-out h2', html: true, key: 'h' }).h).toBe('Mixer <em>Pro</em>');
    expect(t('extract_with_css', PAGE, { value: '', selector: '.price', key: 'p', all: true }).p).toEqual(['€29.90', '€49.00']);
    expect(t('extract_with_css', PAGE, { value: '', selector: 'table td', key: 'none', all: true }).none).toEqual([]);
  });
  it('reads the HTML at a path and writes under key, keeping the data', () => {
    const data = frozen({ page: { html: PAGE }, id: 7 });
    expect(t('extract_with_css', data, { value: '$.page.html', selector: 'a.hot', key: 'sale.link', attribute: 'href' }))
      .toEqual({ page: { html: PAGE }, id: 7, sale: { link: '/sale' } });
    expect(t('extract_with_css', frozen({ page: null }), { value: 'page.html', selector: 'a', key: 'k', all: true })).toEqual({ page: null, k: [] });
  });
  it('fails cleanly on bad settings and non-HTML', async () => {
    await failure('extract_with_css', PAGE, { value: '', selector: 'a', key: 'k', attribute: 'href', html: true });
    await failure('extract_with_css', PAGE, { value: '', selector: 'a[', key: 'k' });
    await failure('extract_with_css', PAGE, { value: '', selector: '', key: 'k' });
    await failure('extract_with_css', PAGE, { value: '', selector: 'a' });
    await failure('extract_with_css', { html: 5 }, { value: 'html', selector: 'a', key: 'k' });
  });
});

describe('extract_with_regex', () => {
  it('names capture groups; no match or absent text gives nulls', () => {
    const data = frozen({ subject: 'Order #1234 shipped via DHL' });
    const cfg = { value: 'subject', expr: '#(\\d+) (\\w+)(?: via (\\w+))?', keys: ['order', 'status', 'carrier'] };
    expect(t('extract_with_regex', data, cfg)).toEqual({ order: '1234', status: 'shipped', carrier: 'DHL' });
    expect(t('extract_with_regex', { subject: 'Order #9 lost' }, cfg)).toEqual({ order: '9', status: 'lost', carrier: null });
    expect(t('extract_with_regex', { subject: 'hello' }, cfg)).toEqual({ order: null, status: null, carrier: null });
    expect(t('extract_with_regex', {}, cfg)).toEqual({ order: null, status: null, carrier: null });
    expect(t('extract_with_regex', 'v1.2', { value: '', expr: '(\\d+)\\.(\\d+)', keys: ['major'] })).toEqual({ major: '1' });
  });
  it('fails cleanly', async () => {
    await failure('extract_with_regex', 'x', { value: '', expr: '(', keys: ['a'] });
    await failure('extract_with_regex', 'x', { value: '', expr: '(a)', keys: ['a', 'b'] });
    await failure('extract_with_regex', 'x', { value: '', expr: '(a)', keys: [] });
    await failure('extract_with_regex', { s: { o: 1 } }, { value: 's', expr: '(a)', keys: ['a'] });
  });
});

describe('replace_values', () => {
  const data = frozen({ user: { name: 'Ann', password: 'p1', tags: ['N/A', 'vip'] }, password: 'p2', note: 'N/A', n: 0 });
  it('masks every value of a key at any depth', () => {
    expect(t('replace_values', data, { target_key: 'password', target_value: '***' }))
      .toEqual({ user: { name: 'Ann', password: '***', tags: ['N/A', 'vip'] }, password: '***', note: 'N/A', n: 0 });
  });
  it('replaces listed values anywhere (including array elements) by target_value', () => {
    expect(t('replace_values', data, { values: ['N/A', '0'], target_value: null }))
      .toEqual({ user: { name: 'Ann', password: 'p1', tags: [null, 'vip'] }, password: 'p2', note: null, n: null });
  });
  it('find_str / regex replace parts of strings with new_str, or whole values with target_value', () => {
    expect(t('replace_values', { a: 'a-b-c', b: ['x-y'] }, { find_str: '-', new_str: '_', target_value: '' })).toEqual({ a: 'a_b_c', b: ['x_y'] });
    expect(t('replace_values', { a: 'id 12, id 34' }, { regex: '\\d+', new_str: '#', target_value: '' })).toEqual({ a: 'id #, id #' });
    expect(t('replace_values', { a: 'x1', b: 'y' }, { find_str: '^x\\d$', regex: true, target_value: 'hit' })).toEqual({ a: 'hit', b: 'y' });
    expect(t('replace_values', { a: '$1', b: 'a.b' }, { find_str: '.', new_str: '$&', target_value: '' })).toEqual({ a: '$1', b: 'a$&b' });
  });
  it('keeps hostile keys as own fields and fails cleanly on bad settings', async () => {
    expect(Object.keys(t('replace_values', hostile(), { values: ['1'], target_value: 0 }))).toEqual(['id', '__proto__', 'constructor']);
    expect(clean()).toBe(true);
    await failure('replace_values', data, { values: ['x'] });
    await failure('replace_values', data, { target_value: 1 });
    await failure('replace_values', data, { find_str: '(', regex: true, target_value: 1 });
    await failure('replace_values', data, { new_str: 'x', target_value: 1, values: ['a'] });
    await failure('replace_values', data, { values: 'N/A', target_value: 1 });
  });
});

describe('flatten', () => {
  it('joins nested keys and array indices; keeps empty containers', () => {
    expect(t('flatten', frozen({ a: { b: 1, c: { d: null } }, t: ['x', { y: 2 }], e: {}, f: [] }), { key_separator: '.' }))
      .toEqual({ 'a.b': 1, 'a.c.d': null, 't.0': 'x', 't.1.y': 2, e: {}, f: [] });
  });
  it('prefix, target and arrays of records', () => {
    expect(t('flatten', { a: { b: 1 } }, { key_separator: '_', prefix: 'user' })).toEqual({ user_a_b: 1 });
    expect(t('flatten', frozen({ meta: 1, item: { a: { b: 2 } } }), { key_separator: '/', target: (d: any) => [{ v: d.item, at: ['item'] }] })).toEqual({ meta: 1, item: { 'a/b': 2 } });
    expect(t('flatten', [{ a: { b: 1 } }, 'x'], { key_separator: '.' })).toEqual([{ 'a.b': 1 }, 'x']);
  });
  it('fails cleanly on collisions, scalars and deep nesting', async () => {
    await failure('flatten', { 'a.b': 1, a: { b: 2 } }, { key_separator: '.' });
    await failure('flatten', 'text', { key_separator: '.' });
    await failure('flatten', {}, {});
    let deep: any = 1;
    for (let i = 0; i < 2000; i++) deep = { d: deep };
    await failure('flatten', deep, { key_separator: '.' });
    await failure('replace_values', deep, { values: ['1'], target_value: 0 });
  });
});
