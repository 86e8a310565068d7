// Facts about what configs may do on the server's own host: programs (`command`), files read from its
// disk (multipart `file_path`), and whether managed mode turns them off.
import { forEachAction, forEachString, interfaces, isObj } from '../load/walk.ts';
import { at, type AuditInput } from './context.ts';
import type { Finding } from './finding.ts';
import { untrustedRef } from './markers.ts';
import type { AuditSettings } from './settings.ts';

export function hostFindings(input: AuditInput, s: AuditSettings): Finding[] {
  const out: Finding[] = [];
  let uses = 0;
  for (const iface of interfaces(input.config)) {
    forEachAction(iface, (a) => {
      const cmd = a.action.command;
      if (isObj(cmd)) {
        uses++;
        let value: { src: string } | undefined;
        forEachString(cmd, [], (str) => { value ??= untrustedRef(str); }, () => false);
        const shell = cmd.shell !== undefined && cmd.shell !== false;
        const owner = { interface: iface.name, action: a.name };
        const off = s.managed ? ' (managed mode is on: serve refuses this config)' : '';
        out.push(at(input, [...a.path, 'command'], shell ? {
          id: 'command-shell', severity: 'medium', ...owner,
          message: `action "${a.name}" runs a shell script (shell: ${JSON.stringify(cmd.shell)}) on the server${value ? `; ${value.src} reaches it as a positional parameter ("$1"…), never as script text` : ''}${off}`,
          fix: 'quote every "$N" in the script, prefer a program with arguments (no shell), or set SERVICE__MANAGED_MODE=1 where configs are not trusted',
        } : {
          id: 'command-action', severity: value ? 'medium' : 'low', ...owner,
          message: `action "${a.name}" runs a program on the server${value ? `; ${value.src} is one of its arguments (it can still be an option such as --version, or a script if the program is an interpreter)` : ''}${off}`,
          fix: value ? 'validate the value (params validate, assert) and put -- before it where the program accepts it; never pass it to sh -c, node -e, python -c' : 'nothing to do if the config is trusted; SERVICE__MANAGED_MODE=1 turns commands off',
        }));
      }
      forEachString(a.action, a.path, (_str, path) => {
        if (path.at(-1) !== 'file_path') return;
        uses++;
        out.push(at(input, path, {
          id: 'file-path-part', severity: 'low', interface: iface.name, action: a.name,
          message: `action "${a.name}" uploads a file from the server's disk (file_path)${s.managed ? ' (managed mode is on: refused at run time)' : ''}`,
          fix: 'send the content as b64 where possible; SERVICE__MANAGED_MODE=1 refuses file_path parts',
        }, 'value'));
      }, (path) => path.length > a.path.length && path[a.path.length] === 'actions');
    });
  }
  if (uses && !s.managed) {
    out.push({
      id: 'managed-mode-off', severity: 'info', file: input.file,
      message: `SERVICE__MANAGED_MODE is off: ${input.file} runs programs or reads files of the server (${uses} place${uses === 1 ? '' : 's'}), and outbound calls may reach private and loopback addresses`,
      fix: 'set SERVICE__MANAGED_MODE=1 where the configs are not fully trusted (it refuses commands and file_path parts and denies private ranges outbound)',
    });
  }
  return out;
}
