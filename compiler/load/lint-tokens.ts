// Resume tokens are the only credential of POST /_ap/resume/<token> (spec: Authentication 4), so a
// wait_for_callback token must be unguessable: its template needs a part of at least 128 random bits
// that no client chose: a|uuid|, a secret, or an earlier action's output (e.g. generate_bytes).
// A literal, or a template of request values (a|body::order_id|), lets anyone resume the run.
import { markerRoot, MARKER_ROOTS, scanMarkers } from '../markers/scan.ts';
import { forEachAction, isObj, type InterfaceSite } from './walk.ts';
import type { Report } from './report.ts';

const UNGUESSABLE_ROOTS = new Set(['uuid', 'secret', 'ap_secret']);

export function lintTokens(ifaces: InterfaceSite[], report: Report): void {
  for (const iface of ifaces) {
    forEachAction(iface, (site) => {
      const w = site.action.wait_for_callback;
      if (!isObj(w) || typeof w.token !== 'string') return;
      const roots = scanMarkers(w.token).filter((m) => m.closed).map((m) => markerRoot(m.body).root);
      // An action reference is any root that is not a request/config root (lintMarkers checks it exists).
      if (roots.some((r) => UNGUESSABLE_ROOTS.has(r) || !MARKER_ROOTS.includes(r))) return;
      report('error', [...site.path, 'wait_for_callback', 'token'],
        `the resume token of action "${site.name}" can be guessed: ${roots.length ? `it is built only from request or config values (${[...new Set(roots)].join(', ')})` : 'it is a fixed text'}`,
        'include a|uuid| (e.g. token: "order-a|uuid|"), a secret, or the output of an earlier action that generates at least 16 random bytes', 'value');
    });
  }
}
