// A lowered config: what the compiler hands to code generation and to the interpreter.
// Plain JSON (no functions), so a compiled bundle can embed it for `disable_fastpath` interfaces.
import type { Expr, Fn, Json, Node, TestIR, TransformIR } from './ir.ts';

export interface ConfigIR {
  /** Config name: the file name without extension. */
  name: string;
  /** File name as given, for messages and generated comments. */
  file: string;
  interfaces: InterfaceIR[];
  onError?: OnErrorIR;
  settings: ConfigSettings;
  /** expose_metrics: Prometheus text at /metrics. */
  exposeMetrics?: boolean;
  /** `mcp_servers`: MCP server identities by id. */
  mcpServers?: Record<string, McpServerIR>;
  /** Secrets, variables and environment values read without a `->default()` (compiler/lower/needs.ts). */
  needs?: NeedIR[];
}

/** A configured value the config reads with no fallback, and the first place it is read. */
export interface NeedIR {
  root: 'secret' | 'ap_secret' | 'var' | 'ap_var' | 'env';
  name: string;
  /** The interface, and the action (nested ones included), that read it first. */
  iface: string;
  action?: string;
}

export interface McpServerIR {
  title?: string;
  instructions?: string;
  default?: boolean;
}

/** An interface exposed as an MCP tool (present only when `mcp.enabled`). */
export interface McpToolIR {
  toolName: string;
  description?: string;
  listAuthorizer?: string;
  server?: string;
}

export interface ConfigSettings {
  /** Config-wide switch for the heavy transforms (compress, decompress, parse_xlsx, parse_pdf). */
  features: Record<string, boolean>;
  /** Config-wide NetworkPolicy (runtime/network/policy.ts). */
  network?: NetworkIR;
}

/** A NetworkPolicy as lowered: lists validated, the window in ms. */
export interface NetworkIR {
  inherit: boolean;
  allowIps?: string[];
  denyIps?: string[];
  allowCountries?: string[];
  denyCountries?: string[];
  allowAsns?: number[];
  denyAsns?: number[];
  rateLimit?: { requests: number; perMs: number; by: string };
}

export interface OnErrorIR {
  interface: string;
  status?: number[];
  maxPerMinute: number;
}

/** A JSON Schema enforced on request data: a leaf, made a validator (generated code, or ajv at load). */
export interface SchemaIR {
  k: 'schema';
  schema: Json;
}

export interface InterfaceIR {
  name: string;
  line: number;
  method: string;
  route: string;
  output: 'http' | 'cli' | 'none';
  /** Served over HTTP (compiler/lower/routing.ts): false for output: cli and for interfaces another
   *  trigger runs (schedule, on_error, authorizers, ws/mqtt/mcp) unless they declare `method`. */
  routed: boolean;
  /** `public: true`: no inbound credential required even when credentials are configured. */
  public?: boolean;
  /** The waits its own actions will take (not a lookup item's), known at compile time: a run of it needs a
   *  durable store when it has a callback wait or a delay longer than SERVICE__MAX_DELAY_SECS. */
  waits?: { callback?: true; delayMs?: number };
  /** `silence: true`: its failed runs do not start the config's `on_error` handler (logs stay). */
  silence?: boolean;
  network?: NetworkIR;
  disableFastpath: boolean;
  params: ParamIR[];
  response: ResponseIR;
  assert?: AssertIR;
  actions: ActionIR[];
  /** Trigger and documentation settings carried as data. */
  schedule?: Json;
  mqtt?: string;
  ws?: string;
  /** Interface run to decide each channel subscription of a socket. */
  subscribeAuthorizer?: string;
  mcp?: McpToolIR;
  accepts?: { schema?: Json; example?: Json };
  /** `accepts.schema`, which every HTTP request body must conform to before any action runs. */
  bodySchema?: SchemaIR;
  produces?: { schema?: Json; example?: Json };
  tests?: TestIR[];
  capture?: Json;
  /** The interface's `log` (CustomLog): its request line's level and extra fields, or no line. */
  log?: InterfaceLogIR;
  /** What the interface documents and accepts, derived at compile time (OpenAPI, MCP schemas). */
  api?: InterfaceApiIR;
}

export interface InterfaceApiIR {
  summary?: string;
  description?: string;
  tags?: string[];
  /** JSON Schema of the request body: `accepts.schema` merged with what the asserts require. */
  body?: Json;
  /** Declared and route parameters with the schema their `validate` implies. */
  params?: Array<{ name: string; in: 'path' | 'query'; required: boolean; schema: Json; description?: string }>;
  /** The success body's schema: `produces.schema`, else inferred from `produces.example`, else from
   *  what the last `output: http` action is known to produce (compiler/lower/api-responses.ts). */
  success?: Json;
  /** The error body `custom_body` / `templates.error` writes instead of the standard one. */
  errorBody?: ApiBodyIR;
  /** The success body `templates.success` writes instead of the success data. */
  successBody?: ApiBodyIR;
  /** Actions' `response_on_success`: the status (`http_code`, else 200) and body they answer with. */
  actionSuccess?: Array<{ action: string; status?: number; body?: ApiBodyIR }>;
  /** Actions' `response_on_error.body`, with the status it goes with when `http_code` fixes one. */
  actionErrors?: Array<ApiBodyIR & { action: string; status?: number }>;
}

/** A body a template writes: JSON (with the schema its text implies) or text; `maybeText`: a lone
 *  marker, sent as JSON or text depending on the value. */
export interface ApiBodyIR {
  json: boolean;
  schema: Json;
  maybeText?: boolean;
}

export interface InterfaceLogIR {
  enabled: boolean;
  level?: string;
  /** Extra fields of the request line, interpolated per run. */
  fields?: Node;
}

/** pre_log, post_log, error_log, success_log, retry_log. */
export type LogPhase = 'pre' | 'post' | 'error' | 'success' | 'retry';

export interface ParamIR {
  name: string;
  value?: Expr;
  default?: string;
  errorMessage?: string;
  validate?: TestIR;
}

export interface ResponseIR {
  httpCodeOnError?: number;
  inheritError?: string[];
  headers?: Node;
  customBody?: Expr;
  fallback?: number;
  fallbackStrategy?: 'last_action' | 'last_action_with_error' | 'any_action';
  showErrorDetail: boolean;
  templates?: Record<string, Expr>;
  /** response.logs: a row per run into a database; `db` is a leaf evaluated after the run. */
  logs?: Array<{ on: 'error' | 'success' | 'any'; db: Node }>;
}

export interface AssertIR {
  tests: TestIR[];
  successMessage?: Expr;
  errorMessage?: Expr;
}

/** run_when_succeeded / run_when_failed / depends_on. */
export interface CondIR {
  actions: string[];
  atLeast?: number;
  httpCodeOnError?: number;
}

export interface RetryIR {
  attempts: number;
  delay: number;
  exponential: boolean;
  maxDelay?: number;
  jitter: 'full' | 'none';
  respectRetryAfter: boolean;
  on?: Array<number | string>;
  except?: Array<number | string>;
}

export interface ActionResponseIR {
  httpCode?: number;
  headers?: Node;
  body?: Expr;
}

export interface ActionIR {
  name: string;
  line: number;
  /** input | http | lookup | delay | ... (one runtime/actions file each). */
  kind: string;
  /** The kind's own settings, interpolated per run ("re-parsed after interpolation"). */
  config?: Node;
  /** input, then input_fallbacks, in order; the first that is not undefined/null wins. */
  input?: Expr[];
  conditionalInput?: Array<{ input: Expr; tests: TestIR[] }>;
  succeeded?: CondIR;
  failed?: CondIR;
  depends?: CondIR;
  onAssertion?: AssertIR;
  timeoutMs?: number;
  retry?: RetryIR;
  assert?: AssertIR;
  post?: TransformIR[];
  /** json_output: [name, jq of the data] pairs. */
  jsonOutput?: Array<[string, Extract<Fn, { k: 'jq' }>]>;
  output?: string;
  hide: {
    action?: boolean;
    dataOnSuccess?: boolean;
    dataOnError?: boolean;
    dataOnEmpty?: boolean;
    errors?: boolean;
    /** hide_metrics: left out of the action metrics. */
    metrics?: boolean;
  };
  responseOnSuccess?: ActionResponseIR;
  responseOnError?: ActionResponseIR;
  /** Statuses this action's assert expects of it that expect_status does not accept (spec: Errors 2). */
  assertStatusHint?: { statuses: number[]; line: number };
  /** `replayable: false`: a captured run that ran this action is inspect-only. */
  notReplayable?: boolean;
  /** Earlier actions whose data this one reads through markers (skip propagation). */
  reads?: string[];
  /** State keys read by `a|state::KEY|` markers of this action; fetched before it runs. */
  stateKeys?: string[];
  /** Lookup fan-out: nested actions run once per item of `over`. */
  /** `inherit`: [name, fn of the item] pairs from lookup_inherit (paths) and lookup_inherit_jq (jq). */
  /** maxItems: lookup_max_items; fromRequest: `over` is a request marker (too many items is then a 400). */
  lookup?: { over: Expr; concurrency: number; partition: boolean; itemTimeoutMs?: number; inherit?: Node; maxItems?: number; fromRequest?: boolean };
  actions?: ActionIR[];
  /** Each phase's LogMessage list as one node (messages interpolated when the phase comes). */
  logs?: Partial<Record<LogPhase, Node>>;
}
