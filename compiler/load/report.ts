// How a lint reports a problem: at a config path, which load turns into a positioned diagnostic.
import type { Diagnostic } from '../source/diagnostics.ts';
import type { ConfigPath } from '../source/yaml.ts';

export type Report = (severity: Diagnostic['severity'], path: ConfigPath, message: string, hint?: string, at?: 'key' | 'value') => void;
