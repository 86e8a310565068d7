import { describe, expect, it } from 'vitest';
import { compileCalcSource } from '../../compiler/calc/compile.ts';
import { compileCalcClosure } from '../../runtime/calc/eval.ts';
import { CalcError, parseCalc } from '../../runtime/calc/parse.ts';
import * as ops from '../../runtime/calc/ops.ts';

const hostile: Array<[string, RegExp]> = [
  ['process.exit()', /only round, floor.*can be called/],
  ['process', /unknown name "process"/],
  ['globalThis.x', /unknown name "globalThis"/],
  ['require("fs")', /not "require"/],
  ['this', /"this" is not supported/],
  ['this.constructor', /not allowed|not supported/],
  ['target.constructor', /field name "constructor" is not allowed/],
  ['target["constructor"]("return 1")', /can be called|not allowed/],
  ['target.__proto__', /"__proto__" is not allowed/],
  ['target["__proto__"]', /"__proto__" is not allowed/],
  ['target.prototype', /"prototype" is not allowed/],
  ['target.price.toFixed(2)', /can be called, not a method/],
  ['round.call(1)', /can be called, not a method/],
  ['constructor(1)', /not "constructor"/],
  ['target[target.key]', /quoted name or an index/],
  ['target["a" + "b"]', /quoted name or an index/],
  ['target[-1]', /quoted name or an index/],
  ['price * 2', /unknown name "price"; fields are read as target.<field>/],
  ['[1, 2]', /array expression is not supported/],
  ['target.a; target.b', /single expression/],
  ['target.a ?? 1', /operator "\?\?" is not supported/],
  ['target.a | 1', /operator "\|" is not supported/],
  ['~target.a', /operator "~" is not supported/],
  ['+target.a', /operator "\+" is not supported/],
  ['a = 1', /Unexpected/],
  ['() => 1', /./],
  ['`x`', /Unexpected/],
  ['1e999', /out of range/],
  ['round()', /takes 1 to 2 argument/],
  ['pow(1)', /takes 2 argument/],
  ['sqrt(1, 2)', /takes 1 argument/],
  ['', /is empty/],
  ['   ', /is empty/],
  ['1 +'.repeat(3000) + '1', /longer than/],
  ['abs('.repeat(100) + '1' + ')'.repeat(100), /nested too deeply/],
  ['-'.repeat(200) + '1', /nested too deeply/],
];

describe('rejected expressions', () => {
  it.each(hostile.map(([src, why]) => [src.length > 40 ? `${src.slice(0, 40)}…` : src, src, why] as const))('%s', (_label, src, why) => {
    expect(() => parseCalc(src)).toThrow(CalcError);
    expect(() => parseCalc(src)).toThrow(why);
    expect(() => compileCalcClosure(src)).toThrow(CalcError);
    expect(() => compileCalcSource(src)).toThrow(CalcError);
  });

  it('accepts redundant parentheses (they add no depth)', () => {
    expect(compileCalcClosure(`${'('.repeat(500)}target.a${')'.repeat(500)} * 2`)({ a: 2 })).toBe(4);
  });

  it('names the expression in the message, shortened', () => {
    expect(() => parseCalc('target.a ?? 1')).toThrow('math expression "target.a ?? 1": operator "??" is not supported');
    expect(() => parseCalc(`${'target.a + '.repeat(20)}x`)).toThrow(/…"/);
  });
});

describe('generated source', () => {
  it('carries names and strings only as JSON literals', () => {
    // Raw U+2028/9 characters inside the string literal (jsep has no \u escapes).
    const evil = 'target["\\"); process.exit(1); (\\""] + "\u2028\u2029</script>"';
    const src = compileCalcSource(evil);
    expect(src).not.toMatch(/[\u2028\u2029]/);
    expect(src).toContain('\\u2028');
    const f = new Function('calc', `return ${src}`)(ops);
    expect(f({ '"); process.exit(1); ("': 'ok' })).toBe('ok\u2028\u2029</script>');
  });

  it('is an arrow function over target calling calc helpers', () => {
    // A field no built-in prototype has is read plainly (compiler/emit/plain-key.ts); one that
    // some prototype has, or an index, goes through calc.field's own-property read.
    expect(compileCalcSource('target.price * target.qty')).toBe('(target) => calc.fin(calc.mul(target?.["price"], target?.["qty"]))');
    expect(compileCalcSource('round(target["unit price"], 2)')).toBe('(target) => calc.fin(calc.fn.round(target?.["unit price"], 2))');
    expect(compileCalcSource('target.length + target.getTime + target["0"]')).toBe(
      '(target) => calc.fin(calc.add(calc.add(calc.field(target, "length"), calc.field(target, "getTime")), calc.field(target, "0")))',
    );
    expect(compileCalcSource('target.customer.name')).toBe('(target) => calc.fin(calc.get(target, "customer", "name"))');
  });

  it('on a record (what math calls it on) reads a plain field with no null check, others as before', () => {
    expect(compileCalcSource('target.price * target.qty', { record: true })).toBe('(target) => calc.fin(calc.mul(target["price"], target["qty"]))');
    expect(compileCalcSource('target.length + target["0"] + target.a.b', { record: true })).toBe(
      '(target) => calc.fin(calc.add(calc.add(calc.field(target, "length"), calc.field(target, "0")), calc.get(target, "a", "b")))',
    );
  });
});
