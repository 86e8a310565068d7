// A test case's answer to the action hook (./stand-ins.ts): an action named in the case's `actions:`
// takes its results from there (one per attempt or call when a list, the same every time when one);
// an email is captured; an outbound kind with no stand-in fails, naming the action and its kind, as
// does a kind nobody classified. Everything else runs as it does in service.
import type { ActionContext, ActionOutcome, Failure } from '../actions/types.ts';
import { mailOf } from '../actions/email/message.ts';
import type { Dispatcher } from 'undici';
import { isRefusalStatus, Refused, REFUSAL_STATUSES } from '../refused.ts';
import { isTransportClass, TRANSPORT_CLASSES } from '../run-state.ts';
import type { StandInResult } from './case-types.ts';
import type { Captures } from './captures.ts';
import { kindClass, type StandIns } from './stand-ins.ts';

export class CaseStandIns implements StandIns {
  private readonly calls = new Map<string, number>();
  /** What went wrong outside any response: an outbound action without a stand-in, a list run out. */
  readonly problems: string[] = [];

  constructor(private readonly given: Readonly<Record<string, StandInResult | StandInResult[]>>, readonly dispatcher: Dispatcher, private readonly captures: Captures) {}

  attempt(a: { readonly name: string; readonly kind: string }, config: unknown, ctx: Pick<ActionContext, 'scope' | 'executionId'>): Promise<ActionOutcome> | undefined {
    const cls = kindClass(a.kind);
    if (Object.hasOwn(this.given, a.name)) return Promise.resolve(this.next(a.name, this.given[a.name]!));
    if (cls === undefined) return this.refuse(`action "${a.name}" is of kind ${a.kind}, which pipewright test does not classify as in-process or outbound (runtime/testing/stand-ins.ts KIND_CLASSES): it is not run`);
    if (cls === 'outbound') return this.refuse(`action "${a.name}" (${a.kind}) has no stand-in: give it one under actions: in the case (outbound calls never leave a test)`);
    if (a.kind === 'email') return Promise.resolve(this.email((config ?? {}) as Record<string, unknown>, ctx));
    return undefined;
  }

  /** Stand-ins never used, or lists not used to their end. */
  unused(): string[] {
    return Object.entries(this.given).flatMap(([name, r]) => {
      const n = this.calls.get(name) ?? 0;
      if (n === 0) return [`the stand-in for action "${name}" was not used (the action did not run)`];
      if (Array.isArray(r) && n < r.length) return [`the stand-in for action "${name}" lists ${r.length} results; ${n} were used`];
      return [];
    });
  }

  private next(name: string, given: StandInResult | StandInResult[]): ActionOutcome {
    const n = this.calls.get(name) ?? 0;
    this.calls.set(name, n + 1);
    const r = Array.isArray(given) ? given[n] : given;
    if (!r) {
      const why = `action "${name}" ran ${n + 1} times; its stand-in lists ${n} results`;
      this.problems.push(why);
      return { ok: false, error: why, failure: { kind: 'other' } };
    }
    const meta = { ...(r.status !== undefined ? { status: r.status } : {}), ...(r.headers ? { headers: r.headers } : {}) };
    if (r.error !== undefined) return { ok: false, error: r.error, failure: this.failureOf(name, r), ...meta };
    // The cases file refuses these at load; a recordings file is read as it is: said, not ignored.
    if (r.transport !== undefined || r.refused !== undefined) this.problems.push(`the stand-in for action "${name}" gives ${r.transport !== undefined ? 'transport' : 'refused'} beside data: it goes with error`);
    return { ok: true, data: r.data ?? null, ...meta };
  }

  /** How a stand-in's error fails the action: as a transport failure of its class (504 for a
   *  timeout, 502 otherwise, retried by `retry.on` classes), a refusal with its status (answered so,
   *  never retried: what the run's action kind refused, a destination the outbound policy denied), a
   *  status failure, or a plain one (500). The cases file's schema admits only the runtime's classes
   *  and refusal statuses, and one of the two; a recordings file is read as it is, so what it holds is
   *  checked here, and a value the runtime does not have fails the case, saying so. */
  private failureOf(name: string, r: StandInResult): Failure {
    if (r.transport !== undefined && r.refused !== undefined) {
      this.problems.push(`the stand-in for action "${name}" gives both transport and refused: a failure is one or the other`);
      return { kind: 'other' };
    }
    if (r.transport !== undefined) {
      if (isTransportClass(r.transport)) return { kind: 'transport', cls: r.transport };
      this.problems.push(`the stand-in for action "${name}" gives transport ${JSON.stringify(r.transport)}, which is none of ${TRANSPORT_CLASSES.join(', ')}`);
      return { kind: 'other' };
    }
    if (r.refused !== undefined) {
      if (isRefusalStatus(r.refused)) return { kind: 'refused', status: r.refused };
      this.problems.push(`the stand-in for action "${name}" gives refused ${JSON.stringify(r.refused)}, which is none of the statuses the runtime refuses with (${REFUSAL_STATUSES.join(', ')})`);
      return { kind: 'other' };
    }
    return r.status !== undefined ? { kind: 'status', status: r.status } : { kind: 'other' };
  }

  private refuse(why: string): Promise<ActionOutcome> {
    this.problems.push(why);
    return Promise.resolve({ ok: false, error: why, failure: { kind: 'other' } });
  }

  /** The message checked as the email action checks it, then captured instead of sent. */
  private email(c: Record<string, unknown>, ctx: Pick<ActionContext, 'scope' | 'executionId'>): ActionOutcome {
    let to: string[];
    try {
      const mail = mailOf(c, ctx.scope.env.env('SERVICE__SMTP_FROM'));
      to = [mail.to, mail.cc, mail.bcc].flatMap((l) => (Array.isArray(l) ? l : l ? [l] : [])).map(String);
    } catch (e) {
      return { ok: false, error: (e as Error).message, failure: e instanceof Refused ? { kind: 'refused', status: e.status } : { kind: 'other' } };
    }
    const fields = Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'smtp' && k !== 'attachments').map(([k, v]) => [k, Array.isArray(v) ? v.map(String).join(', ') : v]));
    this.captures.email(fields);
    return { ok: true, data: { message_id: `<${ctx.executionId}@pipewright.test>`, accepted: to, rejected: [], response: '250 captured by pipewright test' } };
  }
}
