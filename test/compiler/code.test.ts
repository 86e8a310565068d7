import { describe, expect, it } from 'vitest';
import { Name, _, comment, key, lit } from '../../compiler/emit/code.ts';
import { Names } from '../../compiler/codegen/names.ts';

describe('code builder', () => {
  it('turns every plain value into a literal and lets only Code through raw', () => {
    const evil = "'); process.exit(1)//";
    expect(_`f(${evil})`.text).toBe(`f(${JSON.stringify(evil)})`);
    expect(_`f(${new Name('x')})`.text).toBe('f(x)');
    expect(lit('a\u2028b\u2029c')).toBe('"a\\u2028b\\u2029c"');
    expect(lit({ __proto__: 1 } as never)).toBe('{}');
    expect(lit(JSON.parse('{"__proto__": 1, "a b": 2, "ok": 3}'))).toBe('{ ["__proto__"]: 1, "a b": 2, ok: 3 }');
    expect(lit([1, null, true, 'x'])).toBe('[1, null, true, "x"]');
    expect(lit(Number.NaN)).toBe('null');
  });

  it('evaluates hostile literals back to the same data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "*/": "`${1}`", "k": "\u2028"}');
    const back = new Function(`return ${lit(value)};`)();
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses invalid identifiers', () => {
    expect(() => new Name('a-b')).toThrow();
    expect(() => new Name("x'); y")).toThrow();
  });

  it('keeps comments on one line', () => {
    expect(comment('a\nb\u2028c */')).toBe('a\\u000ab\\u2028c */');
    expect(key('__proto__')).toBe('["__proto__"]');
  });

  it('makes deterministic, unique names from config ids', () => {
    const n = new Names();
    expect(n.make('Get Order', 'config').text).toBe('Get_Order_config');
    expect(n.make('Get-Order', 'config').text).toBe('Get_Order_config_2');
    expect(n.make("'); process.exit(1)//").text).toBe('process_exit_1');
    expect(n.make('1st').text).toBe('_1st');
    expect(n.make('__proto__').text).toBe('proto');
  });
});
