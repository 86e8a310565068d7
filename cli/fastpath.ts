// Whether a command runs configs through the interpreter instead of generated code. Its own file:
// `serve` asks before it knows whether it needs the compiler, and must not load it for the answer.
export function fastpathDisabled(flag: boolean | undefined): boolean {
  return flag === true || /^(1|true|yes)$/i.test(process.env.SERVICE__DISABLE_FASTPATH ?? '');
}
