// What a generated module needs from the runtime's optional parts, read from its text: the
// transforms it calls through the registry and whether anything may reach the full jq engine.
// A module that embeds the interpreter (disable_fastpath) may need any of them.

export interface RuntimeUses {
  /** Every part is needed (the interpreter is embedded). */
  all: boolean;
  transforms: Set<string>;
  jqEngine: boolean;
  /** Action kinds of the plan (`kind: "agent"`). */
  kinds: Set<string>;
  /** Surfaces beside HTTP, each with its libraries: MCP, WebSocket channels, MQTT, /metrics. */
  mcp: boolean;
  realtime: boolean;
  mqtt: boolean;
  metrics: boolean;
  /** SQL databases: database and document actions, response.logs. */
  databases: boolean;
  /** Config regexes (tests, params, extract_with_regex, replace_values, JSONPath match/search, discover filters, accepts.schema patterns): the RE2 engine. */
  regexes: boolean;
  /** JSONPath queried at run time (`rt.jsonPathAll`, and `rt.jsonPathPlaces` for a `target` other than names and wildcards; compiled paths and walked targets do not need json-p3's engine). */
  jsonPath: boolean;
  /** JSONPath match()/search(), compiled or not: their I-Regexp checker. */
  jsonPathRegex: boolean;
  /** Cron schedules: the cron parser. */
  schedules: boolean;
  /** An HTTP client (undici's pools and connectors): http, agent and discover actions. */
  httpClient: boolean;
}

export function runtimeUses(moduleText: string): RuntimeUses {
  const transforms = new Set([...moduleText.matchAll(/\brt\.transforms\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!));
  const kinds = new Set([...moduleText.matchAll(/\bkind:\s*"([a-z_]+)"/g)].map((m) => m[1]!));
  return {
    kinds,
    mcp: /\bmcp:\s*\{/.test(moduleText),
    realtime: /\bws:\s*"/.test(moduleText) || kinds.has('ws_publish'),
    mqtt: /\bmqtt:\s*"/.test(moduleText) || kinds.has('mqtt_publish'),
    metrics: /\bexposeMetrics:\s*true\b/.test(moduleText),
    regexes: /\bregex\b|"pipewright\/schema-regexp"|extract_with_regex|replace_values|rt\.interpretInterface|\bjp\.fn(?:Match|Search)\b|\brt\.jsonPath(?:All|Places)\b/.test(moduleText) || kinds.has('discover'),
    databases: kinds.has('database') || kinds.has('document_operation') || /\blogs:\s*\[/.test(moduleText),
    all: /\brt\.interpretInterface\b/.test(moduleText),
    jsonPath: /\brt\.(?:jsonPathAll|jsonPathPlaces|interpretInterface)\b/.test(moduleText),
    jsonPathRegex: /\brt\.(?:jsonPathAll|jsonPathPlaces|interpretInterface)\b|\bjp\.fn(?:Match|Search)\b/.test(moduleText),
    schedules: /\bschedule:\s*\{/.test(moduleText) || /\brt\.interpretInterface\b/.test(moduleText),
    transforms,
    httpClient: /\brt\.interpretInterface\b/.test(moduleText) || ['http', 'agent', 'discover'].some((k) => kinds.has(k)),
    // jq programs outside the compiled subset, and only_new (its key expression is jq at run time).
    jqEngine: /\brt\.jqAll(?:Async)?\b/.test(moduleText) || /\bkind:\s*"only_new"/.test(moduleText),
  };
}
