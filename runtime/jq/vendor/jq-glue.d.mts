/** The emscripten glue of jq 1.8.2 + build/pw_jq.c as source text (see gen.mjs and runtime/jq/core.ts). */
declare const glue: string;
export default glue;
