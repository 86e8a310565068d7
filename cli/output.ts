// Terminal output: colour only on a TTY (and never with NO_COLOR), progress for long multi-config work.
import pc from 'picocolors';

export const color = process.stderr.isTTY === true && !process.env.NO_COLOR;
export const paint = pc.createColors(color);

export function err(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** "[3/10] compiling orders.yaml" on a TTY (one line, rewritten); a plain line per item otherwise. */
export function progress(n: number, total: number, what: string): void {
  if (total < 2) return;
  const line = `[${n}/${total}] ${what}`;
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${line}${n === total ? '\n' : ''}`);
  else err(line);
}
