// POST /_ap/resume/<token> and GET /_ap/runs/<id>. The token is the only credential of a resume
// (spec: Authentication 4); a run id (UUID v4, as unguessable) is the credential of its status. With
// the admin token, GET /_ap/runs/<id> answers the runs API's detail (the same fields and more:
// run-view.ts), also for a run only a capture holds.
import type { FastifyInstance } from 'fastify';
import type { ResumerOptions } from '../durable/resumer.ts';
import { continueRun } from '../durable/resumer.ts';
import { decodeBody } from './request.ts';
import type { GatedRoute } from '../inbound.ts';
import type { AdminAuth } from '../admin-auth.ts';
import { detailView, statusView } from './run-view.ts';
import { INVALID_RUN_ID, validRunId } from './runs-query.ts';
import { recordedRun, rerunOf } from './runs-api.ts';

// The inbound gate's rules for these routes (runtime/network/inbound-gate.ts, RULES): a resume takes
// its token (network policy still applies); run status an interface credential or the admin token.
const RESUME: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'resume' } };
const RUNS: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'runs' } };

const VALID_TOKEN = /^[\x21-\x7e\u00a0-\uffff]{1,512}$/u;

export function registerRunRoutes(app: FastifyInstance, o: Omit<ResumerOptions, 'pollMs' | 'batch'> & { admin?: AdminAuth }): void {
  app.post('/_ap/resume/:token', { config: RESUME }, async (req, reply) => {
    const { token } = req.params as { token: string };
    // A token is printable text of bounded length; anything else (a NUL byte, a megabyte) is the
    // caller's mistake: 400, never a store error turned into a 500.
    if (!VALID_TOKEN.test(token)) return reply.code(400).send({ error: { status: 400, message: 'invalid resume token: expected 1 to 512 printable characters' } });
    // Decode first: a malformed body is a 400 and must not spend the token.
    const body = decodeBody(typeof req.body === 'string' ? req.body : '', String(req.headers['content-type'] ?? ''));
    const claim = await o.store.claimToken(token, new Date(o.services.clock.now()), o.node, body);
    if (claim.kind === 'unknown') return reply.code(404).send({ error: { status: 404, message: 'unknown resume token' } });
    if (claim.kind === 'expired') return reply.code(410).send({ error: { status: 410, message: 'this wait has timed out' } });
    if (claim.kind === 'resumed') return reply.code(409).send({ error: { status: 409, message: 'this run was already resumed' } });
    if (claim.kind === 'cancelled') return reply.code(410).send({ error: { status: 410, message: 'this run was cancelled' } });
    const run = claim.state;
    // The rest of the run may be long: answer now, continue in the background.
    void continueRun(o, run, { kind: 'callback', body, reqId: req.id, headers: req.headers });
    // The request's line names the run it resumed (run_id), as the run's "run resumed" line names the request (req_id).
    return reply.code(202).header('x-run-id', run.id).send({ run_id: run.id, status: 'resumed' });
  });

  app.get('/_ap/runs/:id', { config: RUNS }, async (req, reply) => {
    const { id } = req.params as { id: string };
    // A NUL byte or a megabyte is the caller's mistake (400), never a store error (500).
    if (!validRunId(id)) return reply.code(400).send({ error: { status: 400, message: INVALID_RUN_ID } });
    const admin = o.admin?.holds(req) === true;
    const run = admin ? await recordedRun(o.store, id) : await o.store.loadRun(id);
    // Runs that answered their caller with a success are not kept (run-record.ts, keptFinished).
    if (!run) return reply.code(404).send({ error: { status: 404, message: 'unknown run: no run with this id is kept here (runs that answered their caller with a success are not; an interface\'s `capture: all` keeps them under /_ap/captures)' } });
    if (!admin) return reply.send(statusView(run));
    const rerun = rerunOf(o.plans, run);
    const detail = JSON.stringify(detailView(run, 'reason' in rerun ? { possible: false, reason: rerun.reason } : { possible: true }));
    // A waiting run's token resumes it: never shown, also where an action's data holds it.
    const token = run.status === 'suspended' ? await o.store.waitingToken(id) : undefined;
    return reply.type('application/json; charset=utf-8').send(token ? maskToken(detail, token) : detail);
  });
}

/** The JSON text with every occurrence of `token` (as JSON writes it) replaced by [token]. */
function maskToken(json: string, token: string): string {
  return json.split(JSON.stringify(token).slice(1, -1)).join('[token]');
}
