// An integration's optional `endpoint` (S3-compatible stores, a GCS emulator), checked by the rule the
// s3_generate_presigned_url transform's endpoint obeys (transforms/util/url-signing.ts).
import { signingEndpoint } from '../../transforms/util/url-signing.ts';

export function endpointOf(v: unknown, dflt: string, who: string): string {
  if (v === undefined || v === null || v === '') return dflt;
  return signingEndpoint(String(v), who).href;
}
