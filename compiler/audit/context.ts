// One loaded config as the audit reads it: the schema-checked YAML value with positions, and its IR.
import type { ConfigIR } from '../../runtime/config-ir.ts';
import type { ConfigPath, Locate } from '../source/yaml.ts';
import type { Finding } from './finding.ts';

export interface AuditInput {
  file: string;
  /** The config as loaded (schema-valid). */
  config: unknown;
  locate: Locate;
  ir: ConfigIR;
}

/** A finding at a config node: file, line and column of the node (its value when `at` is 'value'). */
export function at(input: AuditInput, path: ConfigPath, f: Omit<Finding, 'file' | 'line' | 'col'>, where: 'key' | 'value' = 'key'): Finding {
  const p = input.locate(path, where);
  const { id, severity, ...rest } = f;
  return { id, severity, file: input.file, line: p.line, col: p.col, ...rest };
}
