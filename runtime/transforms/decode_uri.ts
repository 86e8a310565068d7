// decode_uri: TransformConfig (util/convert.ts) -> percent-encoding decoded as decodeURI does (escapes of reserved characters such as %2F stay).
import { uriTransform } from './util/uri.ts';

export const run = uriTransform('decode_uri', decodeURI, true);
