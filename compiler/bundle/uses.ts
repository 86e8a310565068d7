// What a generated module needs from the runtime's optional parts, read from its text: the
// transforms it calls through the registry and whether anything may reach the full jq engine.
// A module that embeds the interpreter (disable_fastpath) may need any of them.

export interface RuntimeUses {
  /** Every part is needed (the interpreter is embedded). */
  all: boolean;
  transforms: Set<string>;
  jqEngine: boolean;
}

export function runtimeUses(moduleText: string): RuntimeUses {
  const transforms = new Set([...moduleText.matchAll(/\brt\.transforms\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!));
  return {
    all: /\brt\.interpretInterface\b/.test(moduleText),
    transforms,
    // jq programs outside the compiled subset, and only_new (its key expression is jq at run time).
    jqEngine: /\brt\.jqAll\b/.test(moduleText) || /\bkind:\s*"only_new"/.test(moduleText),
  };
}
