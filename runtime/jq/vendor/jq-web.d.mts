// Types for the generated jq-web factory (only what engine.ts uses).
export interface JqWebModule {
  /** Runs jq's main on `input` (JSON text) with `filter` and CLI `flags`; returns stdout or undefined. */
  raw(input: string, filter: string, flags?: string[]): string | undefined;
}
export interface JqWebOptions {
  print?(text: string): void;
  printErr?(text: string): void;
  /** Emscripten hook: instantiate the wasm with `imports`, then call `done(instance, module)`. */
  instantiateWasm?(imports: object, done: (instance: object, module: object) => void): object;
}
declare const factory: (options?: JqWebOptions) => Promise<JqWebModule>;
export default factory;
