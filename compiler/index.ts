// The compiler's public surface: what the command line (cli/) and tests outside compiler/ use.
export { compileConfig, type Compiled } from './project.ts';
export { generateModule } from './codegen/module.ts';
export { bundleServer, bundleForServe, bundleTracing } from './bundle.ts';
// The OpenAPI document is written by `compile` too: from here, `compile` never loads the runtime.
export { openApiDocument } from '../runtime/contract/openapi.ts';
export { formatDiagnostic, type Diagnostic } from './source/diagnostics.ts';

/** Path of the config JSON Schema, printed by `pipewright schema`. */
/** The published schema `pipewright schema` prints (standard draft-07: compiler/schema/editor.ts). */
export const schemaFile = new URL('./schema/editor.schema.json', import.meta.url);

/** Regenerates compiler/schema/config-types.ts (`pipewright gen-types`), loading its tools only then. */
export async function writeTypes(): Promise<string> {
  return (await import('./schema/gen-types-cli.ts')).writeTypes();
}
export { crossFileRouteConflicts } from './load/cross-routes.ts';
export { loadAndCompile } from './project.ts';
export { auditConfigs, isSeverity, severityRank, SEVERITIES, type AuditInput, type Finding, type Severity } from './audit/index.ts';
export { diffConfigs, diffOpenApi, breakingCount, type Change, type ConfigDiff } from './contract-diff/index.ts';
// `pipewright test` reads `*.tests.yaml` with the config's YAML positions, suggestions and JSONPath check.
export { parseYamlWithPositions, type ConfigPath } from './source/yaml.ts';
export { didYouMean } from './source/suggest.ts';
export { checkJsonPath } from './jsonpath/check.ts';
