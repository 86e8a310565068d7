// GET /_ap/ui: the inspector page (runs, their timelines, cancel and re-run), only with
// SERVICE__ADMIN_TOKEN. Its three static files hold no data and take no credential (a browser cannot
// send a bearer token on navigation); every data call the page makes is a runs API call carrying
// the token (runtime/server/runs-api.ts), so the page can do nothing the API would not. The gate
// applies the network policy to these routes as to every process route (RULES: `policy`).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { GatedRoute } from '../../inbound.ts';
import { inspectorAssets } from './assets.ts';

const INSPECTOR: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'inspector' } };

/** No inline script or style, nothing from elsewhere, no framing, data only from this origin. */
export const INSPECTOR_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

function send(reply: FastifyReply, type: string, text: string): FastifyReply {
  return reply
    .header('content-security-policy', INSPECTOR_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .type(type)
    .send(text);
}

/** The page's routes. A bundle compiled without --inspector has another module in place of this one
 *  (compiler/bundle/inspector.ts): there GET /_ap/ui answers a 404 naming the flag. */
export function registerInspector(app: FastifyInstance): void {
  const assets = inspectorAssets();
  app.get('/_ap/ui', { config: INSPECTOR }, async (_req, reply) => send(reply, 'text/html; charset=utf-8', assets.html));
  app.get('/_ap/ui/app.js', { config: INSPECTOR }, async (_req, reply) => send(reply, 'text/javascript; charset=utf-8', assets.js));
  app.get('/_ap/ui/app.css', { config: INSPECTOR }, async (_req, reply) => send(reply, 'text/css; charset=utf-8', assets.css));
}
