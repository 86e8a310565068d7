// One jq instance: the emscripten glue started on the compiled jq.wasm, programs compiled once (bounded).
// Self-contained on purpose (no imports, no outer names): runtime/jq/deep.ts runs this same function's
// source in its worker thread.

/** The C functions of vendor/build/pw_jq.c and the emscripten helpers jqCore uses. */
interface JqModule {
  _pw_compile(program: number, err: number): number;
  _pw_run(state: number, input: number): number;
  _pw_free(state: number): void;
  _malloc(n: number): number;
  _free(p: number): void;
  UTF8ToString(p: number): string;
  stringToUTF8(s: string, p: number, max: number): void;
  lengthBytesUTF8(s: string): number;
  getValue(p: number, type: 'i32'): number;
}

export interface JqCore {
  /**
   * Compiles `program` (cached) and, unless `text` is null, runs it on that JSON text. Returns "C<jq's
   * messages>" for a compile error, else pw_run's result ('' when only compiling). Throws on a trap.
   */
  exec(program: string, text: string | null): string;
}

export function jqCore(glue: string, module: object, maxPrograms: number): JqCore {
  type Wasm = { Instance: new (m: object, imports: object) => { exports: object } };
  const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;
  const req = (m: string): unknown => (globalThis as unknown as { process: { getBuiltinModule(m: string): unknown } }).process.getBuiltinModule(m);
  const factory = new Function('require', '__dirname', '__filename', glue)(req, '/', '/jq.js') as (o: object) => JqModule;
  let stderr = '';
  const jq = factory({
    // The runtime must not print; what jq writes before it aborts ("cannot allocate memory") is kept
    // for the error. Its own messages come back as values.
    print: () => {},
    printErr: (t: string) => { stderr = stderr ? `${stderr}; ${t}` : t; },
    instantiateWasm: (imports: object, receive: (i: { exports: object }) => void) => {
      const instance = new wasm.Instance(module, imports);
      receive(instance);
      return instance.exports;
    },
  });
  const programs = new Map<string, number>();
  const withString = <T>(s: string, f: (p: number) => T): T => {
    const n = jq.lengthBytesUTF8(s) + 1;
    const p = jq._malloc(n);
    try {
      jq.stringToUTF8(s, p, n);
      return f(p);
    } finally {
      jq._free(p);
    }
  };
  const take = (p: number): string => {
    try {
      return jq.UTF8ToString(p);
    } finally {
      jq._free(p);
    }
  };
  const compile = (program: string): number | string => {
    const have = programs.get(program);
    if (have !== undefined) return have;
    const errOut = jq._malloc(4);
    try {
      const st = withString(program, (p) => jq._pw_compile(p, errOut));
      if (st === 0) return 'C' + take(jq.getValue(errOut, 'i32'));
      if (programs.size >= maxPrograms) {
        const [oldest, st0] = programs.entries().next().value!;
        programs.delete(oldest);
        jq._pw_free(st0);
      }
      programs.set(program, st);
      return st;
    } finally {
      jq._free(errOut);
    }
  };
  return {
    exec(program, text) {
      stderr = '';
      try {
        const st = compile(program);
        if (typeof st === 'string') return st;
        return text === null ? '' : take(withString(text, (p) => jq._pw_run(st, p)));
      } catch (e) {
        if (stderr && e instanceof Error) e.message = `${stderr}: ${e.message}`;
        throw e;
      }
    },
  };
}
