// Types for the generated jq-web factory (only what engine.ts uses).
export interface JqWebModule {
  /** Runs jq's main on `input` (JSON text) with `filter` and CLI `flags`; returns stdout or undefined. */
  raw(input: string, filter: string, flags?: string[]): string | undefined;
}
export interface JqWebOptions {
  instantiateWasm?(
    imports: WebAssembly.Imports,
    done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ): object;
}
declare const factory: (options?: JqWebOptions) => Promise<JqWebModule>;
export default factory;
