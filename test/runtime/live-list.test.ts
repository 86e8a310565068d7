import { describe, expect, it } from 'vitest';
import { LiveList } from '../../runtime/live-list.ts';

describe('LiveList', () => {
  it('lists what is still in, oldest first, whichever entries were removed', () => {
    const l = new LiveList<string>();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((v) => l.add(v));
    l.remove(b!);
    expect(l.values()).toEqual(['a', 'c', 'd']);
    l.remove(a!);
    l.remove(d!);
    expect(l.values()).toEqual(['c']);
    l.add('e');
    expect(l.values()).toEqual(['c', 'e']);
    l.remove(c!);
    l.remove(c!); // twice: nothing
    expect(l.values()).toEqual(['e']);
  });

  it('a removed entry keeps no link to its neighbours nor its value (a dead one holds nothing alive)', () => {
    const l = new LiveList<object>();
    l.add({});
    const mid = l.add({});
    l.add({});
    l.remove(mid);
    expect([mid.prev, mid.next, mid.value]).toEqual([undefined, undefined, undefined]);
    expect(l.values()).toHaveLength(2);
  });
});
