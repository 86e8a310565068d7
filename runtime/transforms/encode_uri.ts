// encode_uri: TransformConfig (util/convert.ts) -> the URI text percent-encoded as encodeURI does (reserved characters such as / ? & stay).
import { uriTransform } from './util/uri.ts';

export const run = uriTransform('encode_uri', encodeURI, false);
