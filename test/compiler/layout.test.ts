// The layout pass that replaced prettier for generated modules: the code it gives back means the same,
// stays inside the page where it can, and a second pass changes nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { layout } from '../../compiler/emit/layout.ts';

/** The code as esbuild prints it: the same for two texts that differ only in layout and trailing commas. */
const canonical = (code: string) => transformSync(code, { loader: 'ts', minifyWhitespace: true }).code;

describe('layout of generated code', () => {
  it('breaks a long call one argument a line, with a trailing comma, and hugs a last arrow argument', () => {
    const long = `d = rt.applyTransform("add_attribute", lines.hello_Greeting_post_1_add_attribute, hello_Greeting_post_add, d, undefined, s);`;
    expect(layout(`function f(d: unknown, s: unknown) {\n${long}\nreturn d;\n}\n`)).toBe([
      'function f(d: unknown, s: unknown) {',
      '  d = rt.applyTransform(',
      '    "add_attribute",',
      '    lines.hello_Greeting_post_1_add_attribute,',
      '    hello_Greeting_post_add,',
      '    d,',
      '    undefined,',
      '    s,',
      '  );',
      '  return d;',
      '}',
      '',
    ].join('\n'));
    const hug = 'const v4 = jq.iter(input).map((v3) => ({ "customer": jq.field(v3, "customer"), "region": jq.field(v3, "region"), "total": 1 }));';
    expect(layout(hug)).toBe('const v4 = jq.iter(input).map((v3) => ({\n  "customer": jq.field(v3, "customer"),\n  "region": jq.field(v3, "region"),\n  "total": 1,\n}));\n');
  });

  it('leaves brackets, commas and quotes inside strings, templates and comments alone', () => {
    const src = `const x = { a: "(,[{", b: '"}])', c: \`\${"]"}(\`, d: "${'y'.repeat(90)}" }; // ) ] }\n`;
    const out = layout(src);
    expect(canonical(out)).toBe(canonical(src));
    expect(out).toContain('  a: "(,[{",\n');
    expect(out).toContain('; // ) ] }');
  });

  it('keeps type arguments whole and adds no trailing comma after a rest element or in a parenthesised expression', () => {
    const src = `function g(${'p'.repeat(40)}: Record<string, unknown>, q: Array<[string, number]>, ...rest: unknown[]): unknown { return (${'a'.repeat(60)} + ${'b'.repeat(60)}); }\n`;
    const out = layout(src);
    expect(out).toContain('  p');
    expect(out).toContain(': Record<string, unknown>,\n');
    expect(out).toContain('  ...rest: unknown[]\n');
    expect(canonical(out)).toBe(canonical(src));
  });

  it('lays out the committed modules as code that parses, the same code when laid out again', () => {
    for (const dir of readdirSync('out')) {
      // Schema validators are ajv's code, placed outside the layout (compiler/codegen/emit-schema.ts).
      const text = readFileSync(`out/${dir}/${dir}.ts`, 'utf8').replace(/^\/\/ [^\n]*: compiled JSON Schema validator \(ajv standalone code\)\n[^]*?^\}\)\(rt\.schemaRequire\)\);\n/gm, '');
      expect(canonical(layout(text)), dir).toBe(canonical(text));
    }
  });

  it('refuses unbalanced brackets (code we should never have emitted)', () => {
    expect(() => layout('f(a, [b);\n')).toThrow(/unbalanced/);
  });
});
