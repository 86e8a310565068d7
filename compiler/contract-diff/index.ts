// `pipewright diff`: the API contract change (from the two OpenAPI documents) and the behaviour change
// (which interfaces' generated code differs) between two versions of one config.
import type { ConfigIR } from '../../runtime/config-ir.ts';
import { openApiDocument } from '../../runtime/contract/openapi.ts';
import { diffBehaviour, type BehaviourChange } from './behaviour-diff.ts';
import { byLevel, type Change } from './changes.ts';
import { diffOpenApi } from './openapi-diff.ts';

export { breakingCount, type Change, type Level } from './changes.ts';
export type { BehaviourChange } from './behaviour-diff.ts';
export { diffOpenApi } from './openapi-diff.ts';

export interface ConfigDiff {
  contract: Change[];
  behaviour: BehaviourChange[];
}

export function diffConfigs(oldIr: ConfigIR, newIr: ConfigIR): ConfigDiff {
  const doc = (ir: ConfigIR) => openApiDocument(newIr.name, ir.interfaces);
  return { contract: byLevel(diffOpenApi(doc(oldIr), doc(newIr))), behaviour: diffBehaviour(oldIr, newIr) };
}
