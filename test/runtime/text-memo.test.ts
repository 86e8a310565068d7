// TextMemo: one value per distinct text, the newest `max` kept, a throw never remembered.
import { describe, expect, it } from 'vitest';
import { TextMemo } from '../../runtime/values/text-memo.ts';

describe('TextMemo', () => {
  it('makes a value once per text, undefined included, and lets the oldest go past max', () => {
    const memo = new TextMemo<string | undefined>(2);
    let made = 0;
    const get = (t: string) => memo.get(t, () => { made++; return t === 'none' ? undefined : t.toUpperCase(); });
    expect([get('a'), get('a'), get('none'), get('none')]).toEqual(['A', 'A', undefined, undefined]);
    expect(made).toBe(2);
    get('b'); // 'a' goes
    expect(made).toBe(3);
    get('none');
    expect(made).toBe(3);
    get('a');
    expect(made).toBe(4);
  });

  it('remembers nothing when making throws', () => {
    const memo = new TextMemo<number>(4);
    let tries = 0;
    const bad = () => memo.get('x', () => { tries++; throw new Error('refused'); });
    expect(bad).toThrow('refused');
    expect(bad).toThrow('refused');
    expect(tries).toBe(2);
    expect(memo.get('x', () => 7)).toBe(7);
  });
});
