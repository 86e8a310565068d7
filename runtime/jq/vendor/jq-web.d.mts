// Types for the generated jq-web factory (only what engine.ts uses).
export interface JqWebModule {
  /** Runs jq's main on `input` (JSON text) with `filter` and CLI `flags`; returns stdout or undefined. */
  raw(input: string, filter: string, flags?: string[]): string | undefined;
}
export interface JqWebOptions {
  print?(text: string): void;
  printErr?(text: string): void;
  /** Returns a WebAssembly.Instance of jq.wasm for these imports (see gen.mjs). */
  instantiateSync(imports: object): { exports: object };
}
/** Starts jq synchronously; throws if it cannot. */
declare const factory: (options: JqWebOptions) => JqWebModule;
export default factory;
