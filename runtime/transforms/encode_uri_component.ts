// encode_uri_component: TransformConfig (util/convert.ts) -> the text percent-encoded as one URI component (encodeURIComponent: / ? & = are encoded too).
import { uriTransform } from './util/uri.ts';

export const run = uriTransform('encode_uri_component', encodeURIComponent, false);
