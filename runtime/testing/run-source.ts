// Where `pipewright test --from-run` reads a run: the runs API of a serving node (GET /_ap/runs/<id>
// with the admin token) or the store itself (SERVICE__DATABASE_URL). Both give the runs API's
// detail view (server/run-view.ts), so one converter reads either; every value in it was redacted
// when the record was stored.
import { openStore } from '../store/index.ts';
import { recordedRun } from '../server/runs-api.ts';
import { detailView } from '../server/run-view.ts';
import { validRunId } from '../server/runs-query.ts';
import { isObject } from '../transforms/util/path.ts';

export type RunDetail = ReturnType<typeof detailView>;

/** What to say when a run is not there: successful runs are kept only when their interface captures them. */
export const NOT_KEPT = 'no run with this id is kept: a run that answered its caller with a success is kept only when its interface captures it. Set `capture: all` on the interface (or `capture: { mode: all, for_runs: 100 }` for a window; `capture: errors` keeps failed runs), reload, and send the request again';

export class RunSourceError extends Error {}

/** The run's detail from a server's runs API. */
export async function runFromServer(server: string, id: string, token: string): Promise<RunDetail> {
  let root: URL, url: URL;
  try { root = new URL(server.endsWith('/') ? server : `${server}/`); url = new URL(`_ap/runs/${encodeURIComponent(id)}`, root); } catch { throw new RunSourceError(`--server must be a URL such as http://127.0.0.1:8080; got ${server}`); }
  const get = async (u: URL) => {
    try {
      // Redirects are not followed: the admin token goes to --server's origin and nowhere else.
      const res = await fetch(u, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, redirect: 'manual' });
      const text = await res.text();
      if (res.status >= 300 && res.status < 400) throw new RunSourceError(`${u.origin} answered ${res.status} (a redirect${res.headers.get('location') ? ` to ${res.headers.get('location')}` : ''}): not followed, the admin token goes to --server only; give the URL the runs API answers at`);
      return { status: res.status, text };
    } catch (e) {
      if (e instanceof RunSourceError) throw e;
      throw new RunSourceError(`cannot reach ${u.origin}: ${((e as Error).cause as Error | undefined)?.message ?? (e as Error).message}`);
    }
  };
  // The run's route answers 404 alike for an unknown run and for a token it does not take (it then
  // reads only the runs table): the list, which only the admin token opens, tells them apart.
  const list = await get(new URL('_ap/runs?limit=1', root));
  if (list.status === 401 || list.status === 403) throw new RunSourceError(`${url.origin} refused the admin token (${list.status}): pass the server's SERVICE__ADMIN_TOKEN (environment) or --admin-token-file`);
  if (list.status === 404) throw new RunSourceError(`${url.origin} has no runs API: start it with SERVICE__ADMIN_TOKEN set`);
  const res = await get(url);
  const text = res.text;
  if (res.status === 404) throw new RunSourceError(`run ${id}: ${NOT_KEPT}`);
  if (res.status !== 200) throw new RunSourceError(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  let detail: RunDetail;
  try { detail = JSON.parse(text) as RunDetail; } catch { throw new RunSourceError(`GET ${url} did not answer JSON`); }
  // Without the admin token (or on a server without one) the route answers the status view only.
  if (!detail || typeof detail !== 'object' || !('request' in detail) || !Array.isArray(detail.actions)) {
    throw new RunSourceError(`${url.origin} answered the run's status without its request and actions: the admin token was not accepted (is SERVICE__ADMIN_TOKEN set on the server, and the same here?)`);
  }
  const odd = notADetail(detail) ?? (detail.id !== id ? `it is of run ${JSON.stringify(detail.id)}, not ${JSON.stringify(id)}` : undefined);
  if (odd) throw new RunSourceError(`GET ${url} answered JSON that is not a run's detail (${odd}): is --server a pipewright node?`);
  return detail;
}

/** What another server's JSON lacks of the shape the converter reads (the values themselves are
 *  checked where they are used): said, rather than a TypeError from deep inside it. */
function notADetail(d: RunDetail): string | undefined {
  const rq: unknown = d.request;
  if (!isObject(rq) || typeof rq.method !== 'string' || !isObject(rq.params) || !isObject(rq.headers)) return 'its request is not { method, params, headers, body }';
  for (const k of ['id', 'config', 'interface', 'status', 'started_at'] as const) if (typeof d[k] !== 'string') return `its ${k} is not a string`;
  // Written into the case's comment as it is: the time the runtime wrote, nothing else.
  const t = Date.parse(d.started_at);
  if (!Number.isFinite(t) || new Date(t).toISOString() !== d.started_at) return 'its started_at is not an ISO time';
  if (d.outcome !== undefined && (!isObject(d.outcome) || !isHttpStatus(d.outcome.http_code))) return 'its outcome is not { http_code, body }';
  const bad = (d.actions as unknown[]).findIndex((a) => !isObject(a) || typeof a.name !== 'string' || typeof a.outcome !== 'string');
  if (bad >= 0) return `its action ${bad + 1} is not { name, outcome, ... }`;
  return undefined;
}

/** A value read from a record (another server's JSON, the store): an HTTP status, or not. */
export const isHttpStatus = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 599;

/** The run's detail from the store named by the environment (SERVICE__DATABASE_URL). */
export async function runFromStore(env: NodeJS.ProcessEnv, id: string): Promise<RunDetail> {
  if (!validRunId(id)) throw new RunSourceError(`${JSON.stringify(id)} is not a run id`);
  const store = await openStore(env);
  try {
    const run = await recordedRun(store, id);
    if (!run) throw new RunSourceError(`run ${id}: ${NOT_KEPT}`);
    return detailView(run, { possible: true });
  } finally {
    await store.close();
  }
}
