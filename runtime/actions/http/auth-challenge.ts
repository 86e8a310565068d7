// WWW-Authenticate parsing (RFC 9110 §11.6.1): a header may carry several challenges, each a scheme
// followed by a token68 or comma-separated auth-params whose values are tokens or quoted-strings.
// No maintained npm parser handles multiple challenges and quoted-pair escapes, so this is a small
// scanner over the RFC grammar; it is lenient: malformed input yields whatever challenges parsed.
export interface Challenge { scheme: string; params: Record<string, string>; token68?: string }

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;

export function parseChallenges(header: string): Challenge[] {
  const out: Challenge[] = [];
  let i = 0;
  const ws = () => { while (i < header.length && (header[i] === ' ' || header[i] === '\t')) i++; };
  const read = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(header);
    if (m) i = re.lastIndex;
    return m?.[0];
  };
  const quoted = (): string | undefined => {
    let s = '';
    for (i++; i < header.length; i++) {
      if (header[i] === '"') { i++; return s; }
      s += header[i] === '\\' ? header[++i] ?? '' : header[i];
    }
    return undefined; // unterminated
  };

  while (i < header.length) {
    while (i < header.length && /[\s,]/.test(header[i])) i++;
    const scheme = read(TOKEN);
    if (!scheme) break;
    const ch: Challenge = { scheme, params: {} };
    out.push(ch);
    ws();
    const afterScheme = i;
    // auth-params: `name = value`; a token not followed by `=` starts the next challenge.
    for (;;) {
      const start = i;
      const name = read(TOKEN);
      if (!name) break;
      ws();
      if (header[i] !== '=') {
        // A lone token right after the scheme (`Negotiate abc`) is a token68; otherwise a new scheme.
        if (start === afterScheme && (i >= header.length || header[i] === ',')) ch.token68 = name;
        else i = start;
        break;
      }
      i++;
      ws();
      const value = header[i] === '"' ? quoted() : read(TOKEN);
      if (value === undefined) {
        // `abc==` style token68 (e.g. Negotiate): re-read from the start of the name.
        i = start;
        ch.token68 = read(TOKEN68);
        break;
      }
      const key = name.toLowerCase();
      if (!(key in ch.params)) ch.params[key] = value;
      ws();
      if (header[i] !== ',') break;
      i++;
      ws();
    }
  }
  return out;
}
