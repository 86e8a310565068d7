// `pipewright audit`: the security-relevant facts of loaded configs and of the environment they would
// be served in, each with a severity and a fix. Plain functions over the loaded config, its IR and an
// environment map (process.env in the CLI), so every rule is testable without a server.
import type { AuditInput } from './context.ts';
import { sortFindings, type Finding } from './finding.ts';
import { hostFindings } from './host.ts';
import { inboundFindings, subscriptionFindings } from './inbound.ts';
import { outboundFindings } from './outbound.ts';
import { credentialWords, readSettings, type Env } from './settings.ts';

export type { AuditInput } from './context.ts';
export { isSeverity, severityRank, SEVERITIES, type Finding, type Severity } from './finding.ts';

export function auditConfigs(inputs: AuditInput[], env: Env): Finding[] {
  const s = readSettings(env);
  const out: Finding[] = [...s.findings];
  for (const input of inputs) out.push(...inboundFindings(input, s), ...outboundFindings(input, s), ...hostFindings(input, s));
  out.push(...subscriptionFindings(inputs));
  if (s.credentials) {
    out.push({
      id: 'credentials', severity: 'info',
      message: `inbound credentials configured (${credentialWords(s)}): every HTTP interface, WebSocket upgrade, MCP call, MQTT client, /metrics and /_ap/openapi.json needs one unless public: true (or SERVICE__PUBLIC_METRICS / SERVICE__PUBLIC_OPENAPI); /_ap/health stays open`,
      fix: 'rotate keys by adding the new one to SERVICE__API_KEYS before removing the old',
    });
  }
  if (s.jwtWithoutExp && (s.jwt || s.jwks)) {
    out.push({
      id: 'jwt-without-exp', severity: 'medium',
      message: 'SERVICE__JWT_REQUIRE_EXP=0: JWTs without an exp claim are accepted, so a leaked token opens the service forever',
      fix: 'unset SERVICE__JWT_REQUIRE_EXP and issue tokens with exp',
    });
  }
  if (s.openapiPublic && s.credentials) {
    out.push({
      id: 'openapi-public', severity: 'low',
      message: 'SERVICE__PUBLIC_OPENAPI=1: /_ap/openapi.json describes every interface (routes, parameters, schemas, examples) to any client the network policy admits',
      fix: 'unset SERVICE__PUBLIC_OPENAPI unless the API description is meant to be public',
    });
  }
  if (s.adminToken) {
    out.push({
      id: 'admin-token', severity: 'info',
      message: 'SERVICE__ADMIN_TOKEN is set: the capture routes (/_ap/captures…) are on, for whoever holds the token',
      fix: 'unset it when no one needs to read or replay captured runs',
    });
  }
  if (!s.database) {
    out.push({
      id: 'in-memory-state', severity: 'info',
      message: 'no SERVICE__DATABASE_URL: state, rate-limit counters, only_new sets, runs and captures live in memory on one node and are lost on restart; long delays are refused',
      fix: 'set SERVICE__DATABASE_URL (Postgres) to run several nodes or keep state across restarts',
    });
  }
  return sortFindings(out);
}
