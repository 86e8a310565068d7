// The ring buffer the memory store keeps finished runs' records in: newest kept within a count and a
// byte bound, older ones forgotten as the ring comes round, an id saved again read at its newest.
import { describe, expect, it } from 'vitest';
import { TextRing } from '../../runtime/store/text-ring.ts';

describe('TextRing', () => {
  it('keeps the newest texts within the count bound', () => {
    const r = new TextRing<number>(1024, 3);
    for (let i = 0; i < 5; i++) r.set(`id${i}`, `{"n":${i}}`, i);
    expect(r.get('id0')).toBeUndefined();
    expect(r.get('id1')).toBeUndefined();
    expect(r.get('id4')).toEqual({ text: '{"n":4}', extra: 4 });
    expect(r.size).toBe(3);
  });

  it('keeps the newest texts within the byte bound, across wrap-arounds, with UTF-8 text intact', () => {
    const r = new TextRing<null>(200, 1000);
    const text = (i: number) => `{"i":${i},"s":"é€${'x'.repeat(i % 7)}"}`;
    for (let i = 0; i < 200; i++) {
      expect(r.set(`k${i}`, text(i), null)).toBe(true);
      expect(r.get(`k${i}`)?.text).toBe(text(i));
      // Every text still held is intact, and the newest few always are held.
      for (let j = Math.max(0, i - 40); j <= i; j++) { const got = r.get(`k${j}`); if (got) expect(got.text).toBe(text(j)); }
      if (i > 0) expect(r.get(`k${i - 1}`)?.text).toBe(text(i - 1));
    }
    expect(r.size).toBeLessThan(12);
  });

  it('an id saved again is read at its newest; a deleted or oversized one is gone', () => {
    const r = new TextRing<string>(64, 10);
    r.set('a', 'first', 'x');
    r.set('b', 'other', 'y');
    r.set('a', 'second', 'z');
    expect(r.get('a')).toEqual({ text: 'second', extra: 'z' });
    for (let i = 0; i < 20; i++) r.set(`f${i}`, 'filler-text', '');
    expect(r.get('a')).toBeUndefined();
    r.set('c', 'kept', '');
    r.delete('c');
    expect(r.get('c')).toBeUndefined();
    expect(r.set('big', 'y'.repeat(17), '')).toBe(false);
    expect(r.set('empty', '', '')).toBe(false);
  });

  it('a text given in parts reads back as their concatenation, multi-byte characters and the wrap included', () => {
    const r = new TextRing<null>(100, 100);
    const parts = (i: number) => [`{"i":${i},`, '"s":"é€', '', `${'x'.repeat(i % 5)}"}`];
    for (let i = 0; i < 30; i++) {
      expect(r.set(`p${i}`, parts(i), null)).toBe(true);
      expect(r.get(`p${i}`)?.text).toBe(parts(i).join(''));
    }
    // The bound counts bytes over all parts: 26 bytes of parts is more than a quarter of 100.
    expect(r.set('big', ['x'.repeat(14), 'é'.repeat(6)], null)).toBe(false); // 20 characters, 26 bytes
    expect(r.set('none', ['', ''], null)).toBe(false);
  });
});
