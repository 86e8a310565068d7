// decode_uri_component: TransformConfig (util/convert.ts) -> every percent-escape decoded (decodeURIComponent).
import { uriTransform } from './util/uri.ts';

export const run = uriTransform('decode_uri_component', decodeURIComponent, true);
