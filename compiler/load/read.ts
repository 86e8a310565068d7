// Reading a config file: a missing file, a directory or an unreadable file is a diagnostic with the
// fix (one line from the CLI), never an exception with a stack trace.
import { readFileSync, statSync } from 'node:fs';

export type ReadResult = { text: string } | { problem: string; hint: string };

const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

export function readConfigFile(file: string): ReadResult {
  try {
    const st = statSync(file);
    if (st.isDirectory()) return { problem: 'is a directory, not a config file', hint: `name the YAML files inside it, e.g. ${file.replace(/\/$/, '')}/*.yaml` };
    if (st.size > MAX_CONFIG_BYTES) return { problem: `is ${st.size} bytes; configs are limited to ${MAX_CONFIG_BYTES}`, hint: 'split it into several configs' };
    return { text: readFileSync(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problem: 'does not exist', hint: 'check the path (it is relative to the current directory)' };
    if (code === 'EACCES' || code === 'EPERM') return { problem: 'cannot be read (permission denied)', hint: 'make it readable by this user' };
    return { problem: `cannot be read (${code ?? (e as Error).message})`, hint: 'check the path' };
  }
}
