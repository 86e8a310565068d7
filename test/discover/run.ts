// One interface whose only action, Members, is the given discover block, run through both paths
// (runBoth requires byte-identical responses).
import { runBoth } from '../support/run-both.ts';
import { systemClock, type Services } from '../../runtime/services.ts';

/** `extra` is YAML appended after the action (more action fields, or more actions). */
export const discoverConfig = (discover: string, extra = '') => `
interfaces:
  members:
    show_error_detail: true
    actions:
      - name: Members
        discover: ${discover}
${extra}`;

/** `concurrent`: both paths run at once (for runs that mostly wait). */
export async function members(discover: string, o: { extra?: string; vars?: Record<string, string>; services?: Services; concurrent?: boolean } = {}) {
  const r = await runBoth(discoverConfig(discover, o.extra), 'members', {}, o.vars ?? {}, o.services ?? { clock: systemClock }, { concurrent: o.concurrent });
  return { status: r.response.status, body: r.response.body as any, attempts: r.state.steps.Members?.attempts };
}

/** The names of the members found. */
export const names = async (discover: string): Promise<string[]> => (await members(discover)).body.Members.map((m: { name: string }) => m.name);

export const RETRY_TWICE = '        retry: { attempts: 2, delay: 0, jitter: none }';
