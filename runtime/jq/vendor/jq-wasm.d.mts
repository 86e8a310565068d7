/** sha256 prefix of the jq-web sources this was generated from. */
export declare const sha: string;
/** jq.wasm, brotli-compressed, base64. */
declare const packed: string;
export default packed;
