// Generated from config.schema.json by compiler/schema/gen-types.ts. Do not edit.

/**
 * A duration: a number of milliseconds or a string such as 500ms, 2s, 1m, 2h, 1d (or a marker).
 */
export type Duration = number | string;
/**
 * A string holding an interpolation marker such as a|var::NAME|.
 */
export type Marker = string;
/**
 * A number, or a marker resolving to one.
 */
export type NumberOrMarker = number | Marker;
/**
 * A boolean, or a marker resolving to one.
 */
export type BooleanOrMarker = boolean | Marker;
/**
 * A number, or a string (a marker or a comparable text such as a date).
 */
export type Comparable = number | string;
export type StringList = string[];
/**
 * A string, an array of strings, or a marker resolving to either.
 */
export type StringOrList = string | StringList;
/**
 * `off` records nothing (the default), `errors` records failed runs only, `all` records successful runs too.
 */
export type CaptureMode = "off" | "errors" | "all";
/**
 * How much of this interface's runs to record for execution history. Absent means off.
 */
export type CaptureSetting = CaptureMode | CaptureWindow;
export type LogMessages = LogMessage[];
/**
 * A list of input strings tried in order, or a list of ConditionalInputConfig.
 */
export type ConditionalInput = (string | ConditionalInputConfig)[];
/**
 * Either an array of action names or RunOnConfig.
 */
export type RunCondition = StringList | RunOnConfig;
/**
 * A StatusMatcher, or a transport class: `timeout` or `connect`.
 */
export type RetryOnMatcher = number | string;
/**
 * A number (exact code) or a string: a class (`2xx`, `4xx`, `5xx`) or `any`.
 */
export type StatusMatcher = number | string;
/**
 * Statuses that count as success: one matcher or a list. Unset means 2xx or 304; `any` never fails on status.
 */
export type StatusExpectation = StatusMatcher | StatusMatcher[];
/**
 * Declared outcome of a command action: one number, an array of numbers, or the string `any`; any other string never matches.
 */
export type ExitExpectation = number | number[] | string;
/**
 * Hash algorithm; default sha256.
 */
export type HmacAlgorithm = "sha1" | "sha256" | "sha512";
/**
 * Signature encoding; default hex.
 */
export type HmacEncoding = "hex" | "base64";
/**
 * Secret encoding; default base32.
 */
export type TotpEncoding = "base32" | "hex" | "ascii";
/**
 * Hash algorithm; default sha1.
 */
export type TotpAlgorithm = "sha1" | "sha256" | "sha512";
/**
 * Code length, 6 (default) to 10.
 */
export type TotpDigits = number;
/**
 * How to encode the body and read the response; inferred when unset. `ndjson` is newline-delimited JSON (one JSON document per line).
 */
export type DataType = "text" | "json" | "csv" | "xml" | "ndjson";
/**
 * true passes all incoming headers; an array passes only those (an empty array passes none).
 */
export type ProxyHeaders = boolean | StringList;
/**
 * A string path, or CustomTransform with required key and json_path.
 */
export type TransformConfig = string | CustomTransform;
/**
 * A string path, {key, json_path} like TransformConfig, or {path} to convert in place; escape_formulas: false turns the formula escaping off.
 */
export type ToCsvConfig =
  | string
  | {
      /**
       * Output field.
       */
      key: string;
      /**
       * Path of the value to transform.
       */
      json_path: string;
      /**
       * Prefix text cells starting with =, +, -, @, a tab or a carriage return with ' so that spreadsheets show them as text (default true). Cells that are plain numbers (-5, +1.5e3) are left as they are. Set false only when the CSV never reaches a spreadsheet.
       */
      escape_formulas?: boolean;
    }
  | {
      /**
       * Path of the array converted in place ("" is the data itself).
       */
      path: string;
      /**
       * As in the {key, json_path} form.
       */
      escape_formulas?: boolean;
    };
export type CompressAlgorithm = "gzip" | "zlib" | "deflate";
export type CompressEncoding = "base64" | "base64url" | "hex";
export type DocumentEncoding = "base64" | "base64url";

/**
 * A pipewright config: named interfaces and the config-wide settings around them.
 */
export interface Config {
  /**
   * Named interfaces. The key of each interface is its name and its default route.
   */
  interfaces: {
    [k: string]: Interface;
  };
  /**
   * SQL databases by name, declared once per config: actions and response.logs name one with `database:`; an action's `conn_string` overrides it. With exactly one declared, it is the default.
   */
  databases?: {
    [k: string]: Database;
  };
  /**
   * MCP servers declared by id; an interface's `mcp.server` joins one of them.
   */
  mcp_servers?: {
    [k: string]: McpServer;
  };
  /**
   * Expose Prometheus metrics; required by `emit_metric` actions.
   */
  expose_metrics?: boolean;
  /**
   * Error handler: an interface of this config run when a run fails with a status in its `status` list.
   */
  on_error?: OnError;
  /**
   * Config-wide gate of the heavy transforms (compress, decompress, parse_xlsx, parse_pdf); each defaults to true.
   */
  features?: Features;
  /**
   * Config-wide network policy; an interface's `network` inherits and tightens it.
   */
  network?: NetworkPolicy;
}
/**
 * An interface: a trigger, an ordered list of actions and a response.
 */
export interface Interface {
  /**
   * How much of this interface's runs to record for execution history. Absent means off (the default everywhere).
   */
  capture?: CaptureSetting;
  /**
   * Defaults given to every action of the interface; an action's own value wins.
   */
  defaults?: ActionDefaults;
  /**
   * One line saying what the interface does: the OpenAPI operation's summary and, unless `mcp.description` is set, the MCP tool's description.
   */
  summary?: string;
  /**
   * Longer text about the interface: the OpenAPI operation's description (Markdown); the MCP tool's description when neither `mcp.description` nor `summary` is set.
   */
  description?: string;
  /**
   * Free-form note for the config's readers; not used by the service.
   */
  notes?: string;
  /**
   * Grouping tags: the OpenAPI operation's tags.
   */
  tags?: StringList;
  /**
   * The interface's request line: `enabled: false` drops it (health checks), `level` sets its level, `fields` adds interpolated fields (see CustomLog).
   */
  log?: CustomLog;
  /**
   * Response bodies as interpolated strings: `success` is the body of every success, `error` of every error (`response.custom_body` wins over it); sent with a JSON content type when the text is JSON, text/plain otherwise.
   */
  templates?: StringMap;
  /**
   * MQTT trigger: the interface runs on every publish to `<environment>/<interface>/<value>` (the value may hold `+` and `#` wildcards); the payload is the body, the topic `a|params::topic|`.
   */
  mqtt?: string;
  /**
   * WebSocket marker; any value enables WebSocket reachability.
   */
  ws?: string | boolean;
  /**
   * Name of an interface run to authorize a socket's channel subscription. Channels are shared: once one WebSocket interface has one, every WebSocket interface must (check refuses the config otherwise).
   */
  subscribe_authorizer?: string;
  /**
   * When true, the interface needs no credential even when inbound credentials (API keys, JWT) are configured: HTTP calls, WebSocket connections and MCP tool calls, for non-sensitive public data (its network policy still applies). A WebSocket interface that is not public cannot be reached while no credential is configured.
   */
  public?: boolean;
  /**
   * Cron trigger: the interface runs on the schedule, once per tick across nodes sharing a durable store, with no request.
   */
  schedule?: Schedule;
  /**
   * When true, failed runs of this interface do not start the config's `on_error` handler (alerts muted); its logs and run records are unchanged.
   */
  silence?: boolean;
  /**
   * HTTP method(s) the interface answers: one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE, QUERY, or several separated by commas (`GET,POST`); any case. Default: GET and POST.
   */
  method?: ("GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "TRACE" | "QUERY") | string;
  /**
   * URL path; defaults to the interface name.
   */
  route?: string;
  /**
   * Add `detail` (the failure's reason) and `data` (the failing action's data) to error bodies. Off by default: callers are not the config's author. Actions with `hide_errors` or `hide_data_on_error` stay hidden.
   */
  show_error_detail?: boolean;
  /**
   * The actions the interface runs, in order (each may be skipped or gated by its run conditions).
   */
  actions?: Action[];
  /**
   * Shorthand for an interface with one `http` action fetching this URL; refused beside `actions`.
   */
  url?: string;
  /**
   * Single-step shorthand: database connection string.
   */
  conn_string?: string;
  /**
   * Shorthand for an interface with one SQL `database` action running this query (with `conn_string`); refused beside `actions`.
   */
  query?: string;
  /**
   * Declared URL parameters with validation.
   */
  params?: {
    [k: string]: Param;
  };
  /**
   * Tests `pipewright test` applies to the response body of the interface's `accepts.example` request (each a Test object; markers read the run, e.g. `a|Fetch::status|`).
   */
  tests?: Test[];
  /**
   * Final assertion against action results.
   */
  assert?: Assert;
  /**
   * Where the result goes: `http` (respond to the caller), `cli` (command-line run) or `none`.
   */
  output?: "http" | "cli" | "none";
  /**
   * How the interface answers: headers, a custom body, and the rules that choose the error status (see InterfaceResponse).
   */
  response?: InterfaceResponse;
  /**
   * Opt out of the compiled fast path; output is identical either way.
   */
  disable_fastpath?: boolean;
  /**
   * The request the interface accepts: `schema` validates the JSON body before any action runs (400 when it does not hold); `example` is the request `pipewright test` sends and the OpenAPI example.
   */
  accepts?: InterfaceContract;
  /**
   * The response the interface produces: `schema` and `example` are checked by `pipewright test` and published in the OpenAPI document.
   */
  produces?: InterfaceContract;
  /**
   * @deprecated
   * Deprecated: use `accepts.example`, which wins when both are set.
   */
  request_example?: unknown;
  /**
   * @deprecated
   * Deprecated: use `produces.example`, which wins when both are set.
   */
  response_example?: unknown;
  /**
   * IP, geo, ASN and rate-limit policy. It inherits and tightens the config-wide policy unless `inherit: false`.
   */
  network?: NetworkPolicy;
  /**
   * Expose as an MCP tool.
   */
  mcp?: McpTool;
}
/**
 * One step of an interface. Its kind is given by which kind field is set (http, database, command, state, lookup, ...); with none, it reshapes its input.
 */
export interface Action {
  /**
   * Action identifier used in references.
   */
  name?: string;
  /**
   * Another spelling of `name`, used when `name` is absent.
   */
  action?: string;
  /**
   * Free text about what the action does, for readers of the config.
   */
  description?: string;
  /**
   * Data source: a body, params, or earlier-action reference. A mapping or list composes a value whose strings interpolate.
   */
  input?:
    | string
    | {
        [k: string]: unknown;
      }
    | unknown[];
  /**
   * Alternative sources tried when the primary input is unavailable.
   */
  input_fallbacks?: StringList;
  /**
   * A list of input strings tried in order, or a list of ConditionalInputConfig.
   */
  conditional_input?: ConditionalInput;
  /**
   * Maximum execution time in milliseconds.
   */
  timeout?: Duration;
  /**
   * Retry the action when an attempt fails: attempts, the wait between them and which failures count (see Retry). Waits past `SERVICE__MAX_DELAY_SECS` suspend the run into the durable store.
   */
  retry?: Retry;
  /**
   * When false, the whole captured run becomes inspect-only and the run records which action caused it.
   */
  replayable?: boolean;
  /**
   * Log lines written before the first attempt (markers interpolate when the line is written).
   */
  pre_log?: LogMessages;
  /**
   * Log lines written after `success_log` when the action succeeded; a failed or skipped action writes none.
   */
  post_log?: LogMessages;
  /**
   * Log lines written when the action fails (after its last attempt); markers can read the failure, e.g. `a|Fetch::status|`.
   */
  error_log?: LogMessages;
  /**
   * Log lines written when the action succeeds.
   */
  success_log?: LogMessages;
  /**
   * Log messages on each retry.
   */
  retry_log?: LogMessages;
  /**
   * Name of a lookup configuration, or an array marker to fan out over (`lookup: a|Members|`).
   */
  lookup?: string;
  /**
   * Nested actions run per lookup item.
   */
  actions?: Action[];
  /**
   * Per-item timeout in a lookup; `timeout` caps the whole loop.
   */
  item_timeout?: Duration;
  /**
   * Max concurrent lookup items; default 10; capped at 50 in managed run modes.
   */
  lookup_concurrency?: number;
  /**
   * The most items this lookup runs (lowers SERVICE__LOOKUP_MAX_ITEMS, default 1000, for this action). More items fail the action before any item runs: 400 when they come from the request (`a|body|`, `a|params::…|`, `a|headers::…|`), 500 otherwise.
   */
  lookup_max_items?: number;
  /**
   * When true the output is an object with `succeeded` (array of item data) and `failed` (array of objects with `item` and optional `http_code`, `error`, `data`) instead of a flat array.
   */
  lookup_partition?: boolean;
  /**
   * Output name to jq expression applied to lookup results.
   */
  lookup_inherit_jq?: StringMap;
  /**
   * Output name to lookup field path to inherit.
   */
  lookup_inherit?: StringMap;
  /**
   * Capture specific JSON values from output (mapping of name to jq path, or a JSON string).
   */
  json_output?: StringMap | string;
  /**
   * Run a system command.
   */
  command?: CommandRun;
  /**
   * Command actions: the output is { exit_code, stdout, stderr } instead of { exit_code }.
   */
  output_stdout?: boolean;
  /**
   * An HTTP call: URL, method, headers, body, auth, pagination, retries of the request itself.
   */
  http?: HttpRequest;
  /**
   * Name of a database declared under `databases:` (the only one declared when omitted).
   */
  database?: string;
  /**
   * SQL text. Values are never written into it: bind them with `params`. Only a|var::|, a|ap_var::| and a|env::| markers may appear in the text.
   */
  query?: string;
  /**
   * SQL parameters, bound in order: `$1`, `$2` (Postgres) or `?` (MySQL/MariaDB).
   */
  params?: unknown[];
  /**
   * Postgres only: run a multi-statement batch via the simple protocol. Valid only for queries with no params; returns an empty result set. Without it several `;`-separated statements fail with SQLSTATE 42601.
   */
  multi?: boolean;
  /**
   * URL for HTTP actions; with an `http` block it is the block's URL.
   */
  url?: string;
  /**
   * Connection string overriding the named database's for this action (a database's pool_size and timeouts still apply when `database` is also set).
   */
  conn_string?: string;
  /**
   * Google Cloud Storage: a `credential` name and one operation block (a V4 signed upload or download URL).
   */
  google?: GoogleIntegration;
  /**
   * AWS S3 (or an S3-compatible store): a `credential` name and one operation block (a SigV4 presigned upload or download URL).
   */
  aws?: AwsIntegration;
  /**
   * Durable key/value operation (polling cursors, dedupe sets, idempotency keys, counters). Read inline with a|state::<KEY>|.
   */
  state?: StateAction;
  /**
   * SFTP operation.
   */
  sftp?: Sftp;
  /**
   * Keep only unseen records.
   */
  only_new?: OnlyNew;
  /**
   * Discover live members of a service.
   */
  discover?: Discover;
  /**
   * Pause; duration string (for example 2s, 500ms, 1m, 1d) or number of milliseconds.
   */
  delay?: Duration;
  /**
   * Suspend until an external call.
   */
  wait_for_callback?: WaitForCallback;
  /**
   * Send an email.
   */
  email?: Email;
  /**
   * Emit a Prometheus metric; requires `expose_metrics: true` on the parent config.
   */
  emit_metric?: EmitMetric;
  /**
   * Publish to WebSocket channels.
   */
  ws_publish?: WsPublish;
  /**
   * Publish to MQTT topics.
   */
  mqtt_publish?: MqttPublish;
  /**
   * Tool-calling agent loop.
   */
  agent?: AgentAction;
  /**
   * Document database operation.
   */
  document_operation?: DocumentOperation;
  /**
   * Run when the named actions complete.
   */
  depends_on?: RunCondition;
  /**
   * Run when the named actions succeed.
   */
  run_when_succeeded?: RunCondition;
  /**
   * Run when the named actions fail.
   */
  run_when_failed?: RunCondition;
  /**
   * Run depending on assertion results.
   */
  run_on_assertion?: Assert;
  /**
   * Applied in order to the action output.
   */
  post_transforms?: Transform[];
  /**
   * Validation of the output; it never decides whether the action failed.
   */
  assert?: Assert;
  /**
   * Where the action's data goes: `http` makes it the interface's response (the last `http` action that ran wins).
   */
  output?: "http";
  /**
   * Command actions: the exit codes that count as success (default 0).
   */
  expect_exit?: ExitExpectation;
  /**
   * Hide the whole action data.
   */
  hide_action?: boolean;
  /**
   * Leave this action out of the default response body (the object keyed by action name) when it succeeded; its data stays readable by later actions.
   */
  hide_data_on_success?: boolean;
  /**
   * Leave this action out of the response body when it failed, and keep its data out of an error response's `data` even with `show_error_detail`.
   */
  hide_data_on_error?: boolean;
  /**
   * Leave this action out of the response body when its data is empty (null, "", [] or {}).
   */
  hide_data_on_empty?: boolean;
  /**
   * When this action fails, leave it out of the response body and keep its `detail` and `data` out of the error response even with `show_error_detail`.
   */
  hide_errors?: boolean;
  /**
   * Leave this action out of the built-in action metrics (`pipewright_action_*` at `/metrics`).
   */
  hide_metrics?: boolean;
  /**
   * The status, headers or body the interface answers with when this action succeeds (see ActionResponse).
   */
  response_on_success?: ActionResponse;
  /**
   * The status, headers or body the interface answers with when this action fails; its `http_code` comes first in the order that picks an error status.
   */
  response_on_error?: ActionResponse;
}
export interface StringMap {
  [k: string]: string;
}
/**
 * One step of post_transforms; each object sets exactly one field.
 */
export interface Transform {
  /**
   * Rename top-level keys (old name to new name), all at once (swaps work), keeping their positions; applied to the data or each object of an array.
   */
  rename_attributes?: StringMap;
  /**
   * Remove these fields (dotted paths) from the data, or from each object of an array.
   */
  remove_attributes?: StringList;
  /**
   * Keep only these fields (dotted paths), in the listed order, of the data or of each object of an array; a missing field is left out, never added as null.
   */
  keep_attributes?: StringList;
  /**
   * Move fields from one dotted path to another (source to destination), creating missing levels as objects.
   */
  move_attributes?: StringMap;
  /**
   * Rename root-level keys (old name to new name), all at once, so swaps work; positions are kept.
   */
  rename_keys?: StringMap;
  /**
   * Remove these root-level keys, taken literally: a dot is part of the key, not nesting (compare `remove_attributes`).
   */
  remove_keys?: StringList;
  /**
   * Add attributes; values may use markers such as a uuid marker.
   */
  add_attribute?: {
    [k: string]: unknown;
  };
  /**
   * Return the row at a 0-based index.
   */
  return_row?: NumberOrMarker;
  /**
   * Replace the data with the one value at this path (its first match; null when absent); `extract_with_json_path` gives every match.
   */
  extract_value?: string;
  /**
   * Extract values from an array (`from`, `paths`, `flatten`, `dedupe`).
   */
  extract_array?: TransformExtractArray;
  /**
   * Replace the data with every match of this JSONPath (RFC 9535), always as an array; `extract_value` gives one value.
   */
  extract_with_json_path?: string;
  /**
   * Replace the data with the output of this jq program: one output as is, several as an array, none as null. A program that fails after some outputs fails as a whole.
   */
  extract_with_jq?: string;
  /**
   * Regex extraction into named capture groups.
   */
  extract_with_regex?: ExtractWithRegex;
  /**
   * CSS selector extraction from HTML.
   */
  extract_with_css?: ExtractWithCss;
  /**
   * Convert string fields to numbers.
   */
  numerics?: StringList;
  /**
   * Group an array's elements by these fields into an object of key → elements; several fields join with `|`, a missing value groups under "null".
   */
  group_by?: StringList;
  /**
   * A bcrypt hash of a value, written under `key`; input over 72 bytes fails rather than being cut.
   */
  bcrypt?: BcryptTransform;
  /**
   * A random password written under `key` (length 4–256; numbers and both letter cases by default, symbols and spaces off).
   */
  generate_password?: TransformPasswordGen;
  /**
   * Replace values anywhere in the data (a copy): those equal to an entry of `values` and/or strings containing `find_str` (or matching it as a regex), optionally only under fields named `target_key`; each becomes `target_value`, or with `new_str` only the matched part is replaced (see TransformReplaceValues).
   */
  replace_values?: TransformReplaceValues;
  /**
   * Flatten nested objects into one level, joining the keys with `key_separator` (see TransformFlatten).
   */
  flatten?: TransformFlatten;
  /**
   * Apply transforms to specific keys.
   */
  nested_transforms?: {
    [k: string]: Transform[];
  };
  /**
   * Compute fields from expressions over the record's fields (`target.qty * target.price`), in order, each seeing the earlier results; non-finite results are null (see TransformMath).
   */
  math?: TransformMath;
  /**
   * Sum, average, min, max and count over an array.
   */
  aggregate?: TransformAggregate;
  /**
   * Keep array elements matching every condition.
   */
  filter?: TransformFilterSearch;
  /**
   * Decode Base64 at this path.
   */
  b64_decode?: string;
  /**
   * Decode Base64 at this path and parse it as JSON.
   */
  b64_decode_as_json?: string;
  /**
   * Encode a value as Base64 text: a string path converts the value there in place; `{key, json_path}` reads `json_path` and writes under `key`.
   */
  b64_encode?: TransformConfig;
  /**
   * Parse YAML text into JSON data: in place at a string path, or under `key` with `{key, json_path}`.
   */
  yaml_to_json?: TransformConfig;
  /**
   * Turn a CSV string into an array of header-keyed row objects.
   */
  parse_csv?: TransformConfig;
  /**
   * Turn an array of objects into CSV, taking columns from the first row's keys. Text cells starting with =, +, -, @, a tab or a carriage return get a leading ' (spreadsheet formula injection, as OWASP recommends); numbers stay numbers.
   */
  to_csv?: ToCsvConfig;
  /**
   * Percent-encodes a URL as JavaScript's encodeURI does (reserved characters kept).
   */
  encode_uri?: TransformConfig;
  /**
   * Percent-encodes text as JavaScript's encodeURIComponent does (for one query value or path segment).
   */
  encode_uri_component?: TransformConfig;
  /**
   * Decodes a percent-encoded URL as JavaScript's decodeURI does.
   */
  decode_uri?: TransformConfig;
  /**
   * Decodes percent-encoded text as JavaScript's decodeURIComponent does.
   */
  decode_uri_component?: TransformConfig;
  /**
   * Turn text into a URL slug.
   */
  generate_slug?: TransformConfig;
  /**
   * `length` (1 to 1024) cryptographically random bytes, written as lowercase hex under `key`.
   */
  generate_bytes?: GenerateBytes;
  /**
   * AES-256-GCM encryption; yields `value`, `nonce`, `tag`.
   */
  encrypt_value?: EncryptValue;
  /**
   * AES-256-GCM decryption; a wrong key or altered ciphertext or tag fails.
   */
  decrypt_value?: DecryptValue;
  /**
   * An HMAC signature of `data` with `secret` (sha256 by default), written under `key` as hex or base64.
   */
  hmac?: HmacSign;
  /**
   * Signs an HS256 JWT (claims from `data`, `iat` now, `exp` as given) and adds it under a key.
   */
  add_jwt?: AddJWT;
  /**
   * Decodes a JWT into {header, payload, verified} under a key (verified against `secret` when one is given).
   */
  read_jwt?: ReadJWT;
  /**
   * Compress a value (gzip, zlib or deflate) and write it as text (base64 by default); the input is bounded by `max_compress_bytes`.
   */
  compress?: TransformCompress;
  /**
   * Decode and decompress a value; the output is bounded by `max_compress_bytes` (a bomb is refused before it expands).
   */
  decompress?: TransformDecompress;
  /**
   * The current TOTP code (RFC 6238) of a shared secret, written under `key`.
   */
  totp?: TransformTotp;
  /**
   * Parse a spreadsheet (.xlsx, .xls, .ods) into rows.
   */
  parse_xlsx?: TransformParseXlsx;
  /**
   * Extract the text of a PDF.
   */
  parse_pdf?: TransformParsePdf;
  /**
   * An S3 presigned URL (SigV4 query signing) to download (`get`) or upload (`put`) one object, valid up to 7 days, written under `key`.
   */
  s3_generate_presigned_url?: S3GeneratePresignedURL;
}
/**
 * A declared URL parameter with validation.
 */
export interface Param {
  /**
   * Source expression such as a params marker.
   */
  value?: string;
  /**
   * Value used when the parameter is absent.
   */
  default_value?: string | number | boolean;
  /**
   * The message answered with 400 when this param's validation fails.
   */
  error_message?: string;
  /**
   * Validation, for example `is_not_empty`, `is_less_than`, `regex`.
   */
  validate?: Test;
}
/**
 * A subject (`value`, `jq` or `json_path`; absent means the data itself) and checks that must all hold.
 */
export interface Test {
  /**
   * The value under test; a marker, a literal, or `count(<marker>)`.
   */
  value?: unknown;
  /**
   * jq expression selecting the value under test.
   */
  jq?: string;
  /**
   * JSON path selecting the value under test.
   */
  json_path?: string;
  /**
   * Equal to this value.
   */
  is_equal_to?: unknown;
  /**
   * Not equal to this value.
   */
  is_not_equal_to?: unknown;
  /**
   * Not null or missing.
   */
  is_not_null?: boolean;
  /**
   * Null or missing.
   */
  is_null?: boolean;
  /**
   * Not empty (string, array, object).
   */
  is_not_empty?: boolean;
  /**
   * Empty (string, array, object).
   */
  is_empty?: boolean;
  /**
   * Greater than.
   */
  is_greater_than?: Comparable;
  /**
   * Greater than or equal to.
   */
  is_greater_than_or_equal_to?: Comparable;
  /**
   * Passes when the value is a number (or decimal text) below this one; fails on a missing value.
   */
  is_less_than?: Comparable;
  /**
   * Less than or equal to.
   */
  is_less_than_or_equal_to?: Comparable;
  /**
   * Between min and max, both inclusive.
   */
  is_between?: BetweenRange;
  /**
   * Matches this regular expression.
   */
  regex?: string;
  /**
   * A string containing this text, or an array containing this item.
   */
  contains?: unknown;
  /**
   * Equal to one of these values.
   */
  is_one_of?: unknown[];
  /**
   * The value is a valid HMAC signature of `data`.
   */
  is_valid_hmac?: HmacCheck;
  /**
   * The value is a valid TOTP code for `secret`.
   */
  is_valid_totp?: TotpCheck;
  /**
   * JSON type of the value.
   */
  is_type?: "string" | "number" | "boolean" | "object" | "array" | "null";
}
/**
 * A database the actions of this config use. The driver follows the connection string's scheme: postgres:// or postgresql:// (pg), mysql:// or mariadb:// (mysql2).
 */
export interface Database {
  /**
   * Connection string; reference a secret, e.g. a|secret::DB_URL|.
   */
  url: string;
  /**
   * Connections kept open at most (shared by every action using the same connection string).
   */
  pool_size?: number;
  /**
   * Longest a statement may run on the server (default 30s).
   */
  statement_timeout?: Duration;
  /**
   * Longest wait for a connection (default 10s).
   */
  connect_timeout?: Duration;
}
/**
 * An MCP server identity, joined by tool `server` id.
 */
export interface McpServer {
  /**
   * Display name.
   */
  title?: string;
  /**
   * Server description.
   */
  instructions?: string;
  /**
   * Serves this identity on the bare MCP route and adopts tools that name no server.
   */
  default?: boolean;
}
/**
 * A map of names to values; values interpolate. Unquoted YAML numbers and booleans are sent as text.
 */
export interface ScalarMap {
  [k: string]: string | number | boolean;
}
/**
 * Config-wide switches for the heavy transforms.
 */
export interface Features {
  /**
   * Allow the `compress` transform in this config; a config that uses it while turned off does not compile.
   */
  compress?: boolean;
  /**
   * Allow the `decompress` transform in this config; a config that uses it while turned off does not compile.
   */
  decompress?: boolean;
  /**
   * Allow the `parse_xlsx` transform in this config; a config that uses it while turned off does not compile.
   */
  parse_xlsx?: boolean;
  /**
   * Allow the `parse_pdf` transform in this config; a config that uses it while turned off does not compile.
   */
  parse_pdf?: boolean;
}
/**
 * Error handler: an interface run when a run fails with a status in `status`. It runs after the response is decided and is not awaited.
 */
export interface OnError {
  /**
   * Name of an interface in this config.
   */
  interface: string;
  /**
   * Statuses that trigger the handler; default any non-2xx.
   */
  status?: number[];
  /**
   * At most this many handler runs start per config per minute; beyond it only the handler is skipped.
   */
  max_per_minute?: number;
}
/**
 * IP, geo, ASN and rate-limit policy, evaluated before anything else runs (before credentials and the body). An interface's policy adds to the config-wide one (both must pass) unless `inherit: false`.
 */
export interface NetworkPolicy {
  /**
   * On an interface: when false, the config-wide policy does not apply to it.
   */
  inherit?: boolean;
  /**
   * When set, only clients whose address is in one of these IPs or CIDRs (e.g. 203.0.113.0/24, 2001:db8::/32) are served.
   */
  allow_ips?: string[];
  /**
   * Clients whose address is in one of these IPs or CIDRs are refused (403).
   */
  deny_ips?: string[];
  /**
   * When set, only clients located in one of these ISO 3166-1 alpha-2 countries (per SERVICE__GEOIP_DB) are served; an address the database does not know is refused.
   */
  allow_countries?: string[];
  /**
   * Clients located in one of these countries are refused.
   */
  deny_countries?: string[];
  /**
   * When set, only clients from one of these autonomous systems (per SERVICE__ASN_DB or SERVICE__GEOIP_DB) are served; an unknown address is refused.
   */
  allow_asns?: number[];
  /**
   * Clients from one of these autonomous systems are refused.
   */
  deny_asns?: number[];
  /**
   * Requests allowed per client key and window; beyond it 429 with Retry-After.
   */
  rate_limit?: RateLimit;
}
/**
 * At most `requests` per `per` window for each client key; beyond it 429 with Retry-After. Counted in memory on one node, in Postgres across nodes when SERVICE__DATABASE_URL is set.
 */
export interface RateLimit {
  /**
   * Requests allowed per client key in each window; one more is refused with 429.
   */
  requests: number;
  /**
   * Window length (fixed windows), e.g. 1s, 1m, 1h.
   */
  per: Duration;
  /**
   * The client key: `ip` (the client address), or `header:<Name>` (that header's value; requests without it are keyed by address).
   */
  by?: string;
}
/**
 * Expose the interface as an MCP tool; its input schema is generated from the interface's assert tests.
 */
export interface McpTool {
  /**
   * Expose the tool.
   */
  enabled?: boolean;
  /**
   * Tool name; default the interface name.
   */
  tool_name?: string;
  /**
   * Tool description; default the interface summary or description.
   */
  description?: string;
  /**
   * Name of an interface run with the forwarded request headers when a client lists tools.
   */
  list_authorizer?: string;
  /**
   * Which declared MCP server the tool joins; omitted means the default server.
   */
  server?: string;
}
/**
 * The interface's request log line: whether it is written, at which level, and extra fields (markers interpolate against the finished run).
 */
export interface CustomLog {
  /**
   * false: no request line for this interface (health checks, noisy polls). Action logs still appear.
   */
  enabled?: boolean;
  /**
   * Level of the request line; default info (error for 5xx).
   */
  level?: "trace" | "debug" | "info" | "warn" | "error" | "fatal";
  /**
   * Extra fields of the request line, e.g. {customer: a|params::id|}; secrets are redacted.
   */
  fields?: {
    [k: string]: unknown;
  };
}
/**
 * Defaults given to every action of the interface; an action's own value wins. Resolved at config load.
 */
export interface ActionDefaults {
  /**
   * Seeds `http.expect_status` on every action that does not set its own.
   */
  expect_status?: StatusExpectation;
}
/**
 * A capture window; whichever of for_minutes and for_runs comes first ends it.
 */
export interface CaptureWindow {
  /**
   * Capture mode while the window is open.
   */
  mode: CaptureMode;
  /**
   * Switches off that many minutes after opening.
   */
  for_minutes?: number;
  /**
   * Switches off after that many runs.
   */
  for_runs?: number;
}
/**
 * Cron trigger.
 */
export interface Schedule {
  /**
   * 5 fields: minute hour day month weekday.
   */
  cron: string;
  /**
   * Whether the schedule runs; `false` keeps the interface without firing it.
   */
  enabled: boolean;
  /**
   * How many times a tick's run is tried in all when it fails (1: no retry); retries wait by the backoff fields and are claimed once across nodes.
   */
  max_attempts?: number;
  /**
   * Wait before the first retry.
   */
  retry_backoff_seconds?: number;
  /**
   * Each retry waits this many times longer than the one before (`retry_backoff_seconds × multiplier^(n−1)`, capped by `max_backoff_seconds`).
   */
  retry_backoff_multiplier?: number;
  /**
   * Cap of one backoff wait.
   */
  max_backoff_seconds?: number;
  /**
   * IANA time zone the cron expression is read in, e.g. `Europe/Paris`.
   */
  timezone?: string;
}
/**
 * Response configuration.
 */
export interface InterfaceResponse {
  /**
   * The status of an error response, unless the failing action's `response_on_error.http_code`, a `depends_on` `http_code_on_error` or an inherited code (`http_code_inherit_error`) chose one first.
   */
  http_code_on_error?: number;
  /**
   * Action names whose error code is inherited.
   */
  http_code_inherit_error?: StringList;
  /**
   * Headers added to every response of the interface (success or error); values interpolate.
   */
  headers?: ScalarMap;
  /**
   * The error response body, an interpolated string sent as is (JSON content type when the text is JSON, else text/plain), instead of the standard `{"error": …}` body.
   */
  custom_body?: string;
  /**
   * The error status used when no earlier rule (action `response_on_error`, `http_code_on_error`, inherited codes, the fallback strategy) chose one; before the built-in defaults (400, 422, 504, 502, 500).
   */
  http_code_fallback?: number;
  /**
   * How the fallback code is chosen.
   */
  http_code_fallback_strategy?: "last_action" | "last_action_with_error" | "any_action";
  /**
   * Rows written to a database after each run (on error, success or any), one InterfaceLog each.
   */
  logs?: InterfaceLog[];
}
/**
 * One row per run into the database's `pipewright_interface_log` table (created by the service).
 */
export interface InterfaceLog {
  /**
   * Which runs are logged: failed (`error`), succeeded (`success`) or all (`any`).
   */
  on: "error" | "success" | "any";
  /**
   * Name of a database declared under `databases:` (the only one declared when omitted).
   */
  database?: string;
}
export interface InterfaceContract {
  /**
   * JSON Schema; derived from assertions when omitted.
   */
  schema?: unknown;
  /**
   * A representative payload: under `accepts`, the request `pipewright test` sends; under `produces`, the body the response must equal. Both are the OpenAPI examples.
   */
  example?: unknown;
}
export interface LogMessage {
  /**
   * The message; markers interpolate.
   */
  msg: string;
  /**
   * Log level: trace, debug, info, warn, error or fatal.
   */
  level: "trace" | "debug" | "info" | "warn" | "error" | "fatal";
  /**
   * Log the interpolated message as structured data (field `data`; text holding JSON is parsed).
   */
  json?: boolean;
}
export interface ConditionalInputConfig {
  /**
   * The input used when every test holds.
   */
  input: string;
  /**
   * Tests that must all hold for this input to be used.
   */
  tests: Test[];
}
export interface RunOnConfig {
  /**
   * How many of the named actions must qualify.
   */
  at_least?: number;
  /**
   * Action names.
   */
  actions: StringList;
  /**
   * HTTP code used when the condition fails.
   */
  http_code_on_error?: number;
}
/**
 * Automatic retry.
 */
export interface Retry {
  /**
   * Total attempts including the first; 1 (default) means no retry.
   */
  attempts: number;
  /**
   * Milliseconds between attempts; with exponential_backoff it is the base.
   */
  delay?: Duration;
  /**
   * Double the wait after each failed attempt.
   */
  exponential_backoff?: boolean;
  /**
   * Replaces the default retryable set (408, 429, 500, 502, 503, 504 and transport failures).
   */
  on?: RetryOnMatcher[];
  /**
   * Subtracted from whatever `on` resolves to, including the default.
   */
  except?: StatusMatcher[];
  /**
   * Honour a Retry-After response header over the computed backoff, still bounded by max_delay.
   */
  respect_retry_after?: boolean;
  /**
   * `full`: sleep a random time in [0, computed). `none`: sleep exactly the computed backoff.
   */
  jitter?: "full" | "none";
  /**
   * Upper bound of a single wait in milliseconds.
   */
  max_delay?: Duration;
}
export interface ActionResponse {
  /**
   * The HTTP status of the response this action decides (100-599).
   */
  http_code?: number;
  /**
   * Response headers added by this action's response (values interpolate).
   */
  headers?: ScalarMap;
  /**
   * The response body sent instead of the default one; interpolated text, sent as JSON when it is JSON, as text/plain otherwise.
   */
  body?: string;
}
/**
 * Inclusive range.
 */
export interface BetweenRange {
  /**
   * Inclusive lower bound.
   */
  min: Comparable;
  /**
   * Inclusive upper bound.
   */
  max: Comparable;
}
/**
 * The value under test is a valid HMAC of `data` (same algorithm and encoding as the `hmac` transform).
 */
export interface HmacCheck {
  /**
   * Signing secret.
   */
  secret: string;
  /**
   * The signed data; for a webhook, `a|raw_body|`: the signature covers the bytes sent, not re-serialised JSON.
   */
  data: unknown;
  /**
   * `sha1`, `sha256` (default) or `sha512`.
   */
  algorithm?: HmacAlgorithm;
  /**
   * `hex` (default) or `base64`.
   */
  encoding?: HmacEncoding;
}
/**
 * The value under test is a valid TOTP code (RFC 6238).
 */
export interface TotpCheck {
  /**
   * Shared secret.
   */
  secret: string;
  /**
   * `base32` (default), `hex`, `ascii`.
   */
  encoding?: TotpEncoding;
  /**
   * 6 (default) to 10.
   */
  digits?: TotpDigits;
  /**
   * Period in seconds; default 30.
   */
  period?: NumberOrMarker;
  /**
   * `sha1` (default), `sha256`, `sha512`.
   */
  algorithm?: TotpAlgorithm;
}
/**
 * Validation; it never decides whether an action failed.
 */
export interface Assert {
  /**
   * Tests that must all hold.
   */
  tests: Test[];
  /**
   * Message when every test holds.
   */
  success_message?: string;
  /**
   * Message when a test fails.
   */
  error_message?: string;
}
/**
 * HTTP call.
 */
export interface HttpRequest {
  /**
   * Target URL; interpolation applies. Required unless the action sets `url`.
   */
  url?: string;
  /**
   * The request's method: GET (default), HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE or QUERY (sent as written); a marker (`a|body::method|`) that chooses it per run; or an extension method (WebDAV's PROPFIND, ...) written `{ extension: PROPFIND }`.
   */
  method?:
    | ("GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "TRACE" | "QUERY")
    | string
    | {
        /**
         * An extension method token (RFC 9110 token), sent as written, e.g. PROPFIND.
         */
        extension: string;
      };
  /**
   * Request headers; values interpolate.
   */
  headers?: ScalarMap;
  /**
   * A mapping is sent as JSON; a string is sent as is.
   */
  body?: unknown;
  /**
   * Raw bytes decoded from base64, for non-multipart binary uploads.
   */
  base64_bytes?: string;
  /**
   * How to encode the body and read the response; inferred when unset.
   */
  data_type?: DataType;
  /**
   * Statuses that count as success.
   */
  expect_status?: StatusExpectation;
  /**
   * Send an idempotency key header: `true` sends the action execution's id as `Idempotency-Key`, the same on every retry attempt, so an upstream that honours it applies a retried POST once; page n of a paginated call sends `<key>-<n>`. A key set in `headers` wins.
   */
  idempotency?: Idempotency;
  /**
   * Token for the Authorization Bearer scheme.
   */
  bearer_auth?: string;
  /**
   * Basic authentication user.
   */
  user?: string;
  /**
   * Basic authentication password.
   */
  pass?: string;
  /**
   * Digest authentication user.
   */
  digest_auth_user?: string;
  /**
   * Digest authentication password.
   */
  digest_auth_pass?: string;
  /**
   * An http:// or https:// proxy URL every request of this action goes through; an empty value is refused rather than going direct.
   */
  proxy?: string;
  /**
   * Parts of a multipart/form-data request.
   */
  multipart?: MultipartPart[];
  /**
   * @deprecated
   * Deprecated: use `multipart`. Text parts.
   */
  multipart_form?: MultipartText[];
  /**
   * @deprecated
   * Deprecated: use `multipart`. File parts.
   */
  multipart_files?: MultipartFile[];
  /**
   * TLS option: accept invalid certificates.
   */
  accept_invalid_certs?: boolean;
  /**
   * TLS option: CA certificate (PEM).
   */
  ca?: string;
  /**
   * TLS option: root certificates (PEM).
   */
  root_certificates?: StringList;
  /**
   * Time bound of each request (each page when paginating); past it the attempt fails as a timeout (504 unless a response rule says otherwise). The action's own `timeout` bounds all its requests together.
   */
  timeout?: Duration;
  /**
   * Time bound of opening the connection (TCP and TLS) to the upstream; the connection is pooled per origin and these settings.
   */
  connect_timeout?: Duration;
  /**
   * Fetch every page of a listing and return all items as one array (see Pagination).
   */
  pagination?: Pagination;
  /**
   * Reverse-proxy passthrough of the body.
   */
  proxy_body?: boolean;
  /**
   * Reverse-proxy passthrough of the method.
   */
  proxy_method?: boolean;
  /**
   * Reverse-proxy passthrough of the query.
   */
  proxy_query?: boolean;
  /**
   * A boolean (true passes all incoming headers) or an array of header names (only those; an empty array passes none).
   */
  proxy_headers?: ProxyHeaders;
}
/**
 * A part of a multipart/form-data request: exactly one of `value`, `b64`, `file_path`.
 */
export interface MultipartPart {
  /**
   * The form field name of this multipart part.
   */
  name: string;
  /**
   * The part's content as text (exactly one of value, b64 and file_path).
   */
  value?: string;
  /**
   * Binary part from base64.
   */
  b64?: string;
  /**
   * Binary part from disk; not allowed in managed or hosted mode.
   */
  file_path?: string;
  /**
   * File name of the part.
   */
  filename?: string;
  /**
   * Content type; for a binary part guessed from the filename extension, falling back to application/octet-stream.
   */
  mime?: string;
}
/**
 * @deprecated
 * Deprecated legacy text part.
 */
export interface MultipartText {
  /**
   * The form field name of this text part.
   */
  key: string;
  /**
   * The text sent as this part's content (interpolated).
   */
  value: string;
  /**
   * Content type.
   */
  mime_str?: string;
}
/**
 * @deprecated
 * Deprecated legacy file part.
 */
export interface MultipartFile {
  /**
   * File on disk.
   */
  file_path: string;
  /**
   * File name of the part.
   */
  file_name: string;
  /**
   * Content from base64.
   */
  b64?: string;
  /**
   * Content type.
   */
  mime_str?: string;
  /**
   * The form field name the uploaded file is sent under.
   */
  part_name?: string;
}
/**
 * Send an idempotency key.
 */
export interface Idempotency {
  /**
   * Omitted means a UUID generated per action execution and reused on every retry attempt of it.
   */
  key?: string;
  /**
   * The header the key is sent in.
   */
  header?: string;
}
/**
 * How an `http` action fetches every page of a listing and concatenates the items. The style is chosen by which key is set, exactly one of: `page_next_key` (page numbers), `next_cursor_key` (cursors), `next_link_key` or `next_link: true` (next links); a field of another style given a non-default value is refused. Each page is a full request (method, headers, body, auth); any page's failure fails the action with that page's status and a `page N:` prefix, and a retry starts again at page 1. All pages together are held to the action's 32 MiB response bound. The action's data is every page's items in order; its status and headers are the last page's.
 */
export interface Pagination {
  /**
   * Page-number and cursor styles: the URL of every request after the first, for APIs whose continuation endpoint differs from the first one (e.g. a scroll endpoint). Unset: the action's URL. Must be http(s).
   */
  original_url?: string;
  /**
   * Next-link style: `true` reads the next page's URL from the `Link: <…>; rel="next"` response header (RFC 8288), used when the body has no `next_link_key` value.
   */
  next_link?: string | boolean;
  /**
   * The total number of pages when it is known before the first request; the scan stops after that many (counting pages skipped by `page_marker`). 0 means unknown.
   */
  no_pages?: NumberOrMarker;
  /**
   * Page-number style: how many pages to skip before the first request, to resume from a known position; also counted against the known total.
   */
  page_marker?: NumberOrMarker;
  /**
   * Cursor style: the query parameter that carries the cursor. (default `cursor`)
   */
  cursor_marker?: string;
  /**
   * Page-number style: how much the page parameter grows per request; set it to the page size, with `page_start: 0`, for offset-based APIs (`?offset=0`, `?offset=50`, …).
   */
  increment?: NumberOrMarker;
  /**
   * The most pages to fetch (1 to 10000); reaching it ends the action with success and the items so far. Unset: at most 100 pages, and reaching 100 with pages left fails the action rather than return a truncated list.
   */
  max_pages?: NumberOrMarker;
  /**
   * Response path (dotted, e.g. `meta.total_pages`) of the total page count; read from every page, reaching it ends the scan. A value that is not an integer fails the action.
   */
  max_pages_key?: string;
  /**
   * Page-number style: the number of the first page (0 for APIs that count from 0, or for offsets).
   */
  page_start?: NumberOrMarker;
  /**
   * Page-number style: the query parameter that carries the page number. Request n asks for page `page_start + (page_marker + n - 1) × increment`; the scan stops at the first page with no items, at the total from `no_pages` or `max_pages_key`, or at `max_pages`.
   */
  page_next_key?: string;
  /**
   * The page size to ask for, sent as the `page_limit_key` query parameter on every page-number and cursor request and on the first next-link request (later links carry their own).
   */
  page_limit?: NumberOrMarker;
  /**
   * The query parameter that carries `page_limit`; needs `page_limit`. (default `limit`)
   */
  page_limit_key?: string;
  /**
   * Response path (dotted; `$.`/`.` prefix allowed, array indexes as numbers) of each page's items array. Unset: the body itself must be an array. An absent or null value, or an empty body, is an empty page.
   */
  payload_key?: string;
  /**
   * Cursor style: response path (dotted) of the next page's cursor, sent on the next request as the `cursor_marker` query parameter. The scan stops when the cursor is absent, null, empty or false, or repeats the one just sent; empty pages do not stop it.
   */
  next_cursor_key?: string;
  /**
   * Cursor style: response path of the last cursor there is; the scan stops once the page requested with that cursor has been fetched.
   */
  max_cursor_key?: string;
  /**
   * Next-link style: response path (dotted) of the next page's URL. Relative links are resolved against the current page's URL, or appended to `next_link_host` when set. A link to another origin fails the action (credentials and the idempotency key must not follow it). The scan stops when there is no link or it repeats.
   */
  next_link_key?: string;
  /**
   * Next-link style: the scheme and host (e.g. `https://api.example.com`) that relative next links are appended to, and the one other origin links may lead to.
   */
  next_link_host?: string;
}
/**
 * Run a program with arguments, without a shell unless `shell` is set (docs/guide.md, Commands).
 */
export interface CommandRun {
  /**
   * The command line. Without `shell`: the program and its arguments, split into words when the config is loaded ('…' and "…" group words, a backslash escapes one character); a marker's value is always part of one argument and is never re-split or read by a shell; the program itself may come only from a|var::|, a|ap_var::| or a|env::| markers. With `shell`: the script the shell runs; each marker becomes a positional parameter ("${1}", "${2}", …) whose value is passed separately, never pasted into the script.
   */
  run: string;
  /**
   * true runs `run` with /bin/sh -c; a string names the shell program (e.g. /bin/bash), which must accept -c. false or absent: no shell.
   */
  shell?: string | boolean;
  /**
   * Environment entries for the program, values interpolated. The program otherwise gets only PATH, HOME, LANG, LC_ALL, LC_CTYPE, TZ and TMPDIR from the service's environment.
   */
  env?: ScalarMap;
  /**
   * Working directory (relative to the service's working directory, which is the default).
   */
  cwd?: string;
}
/**
 * Durable key/value operation: exactly one of get, set, advance, increment, delete (plus an optional namespace). Read inline with a|state::<KEY>|.
 */
export interface StateAction {
  /**
   * Read the value (null when absent).
   */
  get?: StateKey;
  /**
   * Store `value` under `key` (with an optional `ttl`); outputs the value.
   */
  set?: StateSet;
  /**
   * Move a cursor forward: stores `value` only when it is greater than the stored one.
   */
  advance?: StateSet;
  /**
   * Add `by` (default 1) to a counter.
   */
  increment?: StateIncrement;
  /**
   * Remove the key; outputs `{deleted}`.
   */
  delete?: StateKey;
  /**
   * Namespace of the key (default: the config name); actions of several configs sharing a namespace share keys.
   */
  namespace?: string;
}
export interface StateKey {
  /**
   * State key; markers interpolate.
   */
  key: string;
}
/**
 * Store `value` under `key`.
 */
export interface StateSet {
  /**
   * State key; markers interpolate.
   */
  key: string;
  /**
   * The value to store: any JSON; a whole `secret`/`var` marker holding JSON text is stored as that JSON.
   */
  value: unknown;
  /**
   * Lifetime; without it the value is kept.
   */
  ttl?: Duration;
}
/**
 * Add `by` to a counter (absent counts as 0); outputs the new value.
 */
export interface StateIncrement {
  /**
   * State key; markers interpolate.
   */
  key: string;
  /**
   * Amount; default 1.
   */
  by?: NumberOrMarker;
  /**
   * Lifetime; without it the value is kept.
   */
  ttl?: Duration;
}
/**
 * SFTP operation.
 */
export interface Sftp {
  /**
   * Server host.
   */
  host: string;
  /**
   * The SSH port of the SFTP server.
   */
  port?: NumberOrMarker;
  /**
   * The SSH user name to log in as.
   */
  user: string;
  /**
   * Password (reference a secret).
   */
  password?: string;
  /**
   * PEM or OpenSSH private key, preferred over a password.
   */
  private_key?: string;
  /**
   * Passphrase of the key.
   */
  private_key_passphrase?: string;
  /**
   * Server host key fingerprint in the SHA256:<fingerprint> format printed by ssh-keygen. Required unless accept_any_host_key is set.
   */
  host_key?: string;
  /**
   * Default false; skips server identity verification.
   */
  accept_any_host_key?: boolean;
  /**
   * Connect wait and idle limit, for example 30s; default 30 seconds.
   */
  timeout?: Duration;
  /**
   * What to do on the server: `list` a directory, `get` or `put` a file, `delete` it, `rename` it (to `to`), or `mkdir` (parents too, like `mkdir -p`).
   */
  operation: "list" | "get" | "put" | "delete" | "rename" | "mkdir";
  /**
   * The remote path the operation works on.
   */
  path: string;
  /**
   * Destination for `rename`.
   */
  to?: string;
  /**
   * Bytes to write for `put`.
   */
  content?: string;
  /**
   * `text` (default) or `base64`; a `get` of a binary file as text is an error.
   */
  encoding?: "text" | "base64";
}
/**
 * Keep only unseen records.
 */
export interface OnlyNew {
  /**
   * jq expression of a record's identity, compared as text; default .id.
   */
  id?: string;
  /**
   * The dedupe set; actions sharing a key share memory.
   */
  key: string;
  /**
   * Namespace of the seen-id set (default the config name); actions of several configs sharing a namespace share the set.
   */
  namespace?: string;
  /**
   * Such as 30d; without it ids are kept until evicted by a cap that keeps the newest 5000 ids.
   */
  ttl?: Duration;
  /**
   * When nothing is new, skip the action and everything depending on it.
   */
  skip_when_empty?: boolean;
}
/**
 * Discover live members of a service. Every backend set adds its members; each item has name, address, port, url, source, ready, namespace, node, image, labels (fields a backend cannot know are left out). At most 1000 members.
 */
export interface Discover {
  /**
   * Find members by DNS: SRV records of a name, or the addresses of a host (see DiscoverDns).
   */
  dns?: DiscoverDns;
  /**
   * Find members as the pods of a Kubernetes namespace that match its label and field selectors (see DiscoverKubernetes).
   */
  kubernetes?: DiscoverKubernetes;
  /**
   * Find members as running Docker containers matching labels, through the Docker socket (see DiscoverDocker).
   */
  docker?: DiscoverDocker;
  /**
   * A list of host:port strings or one comma-separated string; empty and null entries are dropped.
   */
  static?: string | (string | null)[];
  /**
   * Keep only matching members (applied first).
   */
  include?: DiscoverFilter;
  /**
   * Drop matching members (exclusion wins).
   */
  exclude?: DiscoverFilter;
  /**
   * A number, or a string (a marker or quoted number) parsed after interpolation. Used when the backend gives no port.
   */
  port?: number | string;
  /**
   * URL scheme of discovered members.
   */
  scheme?: string;
  /**
   * Default 10; 0 disables caching.
   */
  cache_ttl_secs?: number;
  /**
   * Default false: an empty result is an empty array.
   */
  fail_when_empty?: boolean;
}
export interface DiscoverDns {
  /**
   * A bare name takes the action's port; name:port is honoured. A name starting with an underscore (`_http._tcp.api.svc`) is looked up as SRV: targets resolved, ports from the records. Resolvers: `SERVICE__DNS_SERVERS`, else the system's.
   */
  name: string;
  /**
   * Address to drop (this node's own).
   */
  exclude_self?: string;
}
/**
 * Pods from the Kubernetes API server (in-cluster service-account credentials; the `SERVICE__KUBERNETES_API_URL`, `…_TOKEN_FILE`, `…_CA_FILE` and `…_NAMESPACE_FILE` settings override them).
 */
export interface DiscoverKubernetes {
  /**
   * Default: this pod's own namespace (from the service-account namespace file), else default. Must be in SERVICE__DISCOVER_KUBERNETES_NAMESPACES when set (in managed mode, default only the pod's own).
   */
  namespace?: string;
  /**
   * Kubernetes label selector.
   */
  label_selector?: string;
  /**
   * Kubernetes field selector.
   */
  field_selector?: string;
  /**
   * Named container port to use; a pod without it is left out. Unset: the action's port, else the pod's first declared port.
   */
  port_name?: string;
  /**
   * Only pods whose Ready condition is True and that are not being deleted; default true.
   */
  ready_only?: boolean;
}
/**
 * Running containers from the Docker Engine API on its unix socket; containers whose health check reports unhealthy or starting are left out. Port: the action's, else the lowest exposed TCP port.
 */
export interface DiscoverDocker {
  /**
   * All must match.
   */
  labels?: StringMap;
  /**
   * With several attached and no choice, the first is used.
   */
  network?: string;
  /**
   * Docker socket; default SERVICE__DISCOVER_DOCKER_SOCKET, else /var/run/docker.sock. When that setting is set only its socket is allowed; in managed mode docker discovery needs it.
   */
  socket?: string;
}
/**
 * Regex strings; an unset field matches everything; a field the backend does not provide never matches.
 */
export interface DiscoverFilter {
  /**
   * Regex on the member name.
   */
  name?: string;
  /**
   * Regex on the member image.
   */
  image?: string;
  /**
   * Regex on the member namespace.
   */
  namespace?: string;
}
/**
 * Suspend until an external call to the resume endpoint; the posted body becomes the action's output.
 */
export interface WaitForCallback {
  /**
   * Unguessable secret identifying the wait; mint with a|uuid| in an earlier action.
   */
  token: string;
  /**
   * Duration such as 7d or 2h; no unbounded wait.
   */
  timeout: Duration;
}
/**
 * Send an email.
 */
export interface Email {
  /**
   * SMTP server URL (smtp:// or smtps://, usually a secret marker); omitted means SERVICE__SMTP_URL.
   */
  smtp?: string;
  /**
   * Sender: one address (default SERVICE__SMTP_FROM).
   */
  from?: string;
  /**
   * Recipients: one address or a list (each entry exactly one address).
   */
  to: StringOrList;
  /**
   * Copy recipients: one address, a list, or a marker giving either.
   */
  cc?: StringOrList;
  /**
   * Blind copy recipients (sent to, never shown in the headers): one address, a list, or a marker giving either.
   */
  bcc?: StringOrList;
  /**
   * Reply-To: one address.
   */
  reply_to?: string;
  /**
   * Subject (line breaks become spaces).
   */
  subject?: string;
  /**
   * Plain-text body.
   */
  text?: string;
  /**
   * The message body as HTML (interpolated); `text` gives the plain-text alternative.
   */
  body?: string;
  /**
   * Files attached to the message, one EmailAttachment each (filename, content, content type, encoding).
   */
  attachments?: EmailAttachment[];
}
export interface EmailAttachment {
  /**
   * File name (required).
   */
  filename: string;
  /**
   * Base64 by default.
   */
  content: string;
  /**
   * Default application/octet-stream.
   */
  content_type?: string;
  /**
   * `base64` (default) or `utf8`.
   */
  encoding?: "base64" | "utf8";
}
/**
 * Emit a Prometheus metric; requires expose_metrics: true on the config.
 */
export interface EmitMetric {
  /**
   * Metric name (Prometheus naming); the `pipewright_` prefix is reserved for built-in metrics.
   */
  name: string;
  /**
   * Prometheus metric type: `gauge` sets the value, `counter` adds it, `histogram` observes it.
   */
  type?: "gauge" | "counter" | "histogram";
  /**
   * Value (a counter adds it; default 1 for counters).
   */
  value?: NumberOrMarker;
  /**
   * Metric labels; values interpolate.
   */
  labels?: ScalarMap;
  /**
   * The metric's HELP text on /metrics.
   */
  help?: string;
}
/**
 * Publish to WebSocket channels on this node and peers; does not wait for delivery.
 */
export interface WsPublish {
  /**
   * A string, an array of strings, or a marker resolving to either.
   */
  channels: StringOrList;
  /**
   * Defaults to the request or message body.
   */
  data?: unknown;
  /**
   * Store the payload as the channel's retained value so later subscribers receive it on subscribe; default false.
   */
  retain?: unknown;
}
/**
 * Publish to MQTT topics on this node and peers; does not wait for broker acknowledgement.
 */
export interface MqttPublish {
  /**
   * The topic to publish to: one name, a list, or a marker giving either; each is published once.
   */
  topics: StringOrList;
  /**
   * A JSON string publishes as raw text, any other value as its JSON encoding; defaults to the body.
   */
  data?: unknown;
  /**
   * 0 (default), 1 or 2.
   */
  qos?: (0 | 1 | 2) | Marker;
  /**
   * Ask the broker to keep the message as the topic's retained message, delivered to later subscribers. (default false)
   */
  retain?: BooleanOrMarker;
}
/**
 * Tool-calling agent loop.
 */
export interface AgentAction {
  /**
   * Endpoint speaking the chat-completions request shape.
   */
  url: string;
  /**
   * Model id passed through verbatim.
   */
  model: string;
  /**
   * Headers for the model call (credentials).
   */
  headers?: ScalarMap;
  /**
   * System prompt, prepended as the first message.
   */
  system?: string;
  /**
   * A string (one user message) or an array of objects with role and content.
   */
  input?: string | AgentMessage[];
  /**
   * Interfaces of this config offered as tools by name.
   */
  tools?: StringList;
  /**
   * Request headers every run of a local tool (an interface named in `tools`) receives, interpolated in the agent's run: e.g. the caller's session token, which the tool's interface verifies as it would an HTTP caller's. The model cannot set them.
   */
  tool_headers?: ScalarMap;
  /**
   * Remote MCP servers whose tools are discovered at run time.
   */
  mcp?: AgentMcpServer[];
  /**
   * Model round trips allowed; default 4, at most 12 (more is refused at load).
   */
  max_iterations?: number;
  /**
   * Keep the conversation across requests under a key, so later runs continue it (see AgentMemory).
   */
  memory?: AgentMemory;
  /**
   * Sampling temperature sent to the model when set; the model's default otherwise.
   */
  temperature?: number;
  /**
   * Seconds per model call; default 60, at most 600.
   */
  timeout?: number;
}
export interface AgentMessage {
  /**
   * Who says it: `system` (instructions), `user` or `assistant` (earlier turns).
   */
  role: string;
  /**
   * Message text.
   */
  content: string;
}
export interface AgentMcpServer {
  /**
   * JSON-RPC endpoint.
   */
  url: string;
  /**
   * Headers for the MCP server (credentials).
   */
  headers?: ScalarMap;
  /**
   * Tool names; absent means all tools.
   */
  only?: StringList;
}
/**
 * Conversation memory across requests.
 */
export interface AgentMemory {
  /**
   * Distinguishes conversations; no default.
   */
  key: string;
  /**
   * Stored messages kept (user and assistant turns); default 10, at most 50.
   */
  window?: number;
  /**
   * Inactivity lifetime; default 24h.
   */
  ttl?: Duration;
  /**
   * Default the config name.
   */
  namespace?: string;
}
/**
 * Document operation on a Postgres collection (a table of JSONB documents, created on first use).
 */
export interface DocumentOperation {
  /**
   * Name of a Postgres database declared under `databases:` (the only one declared when omitted).
   */
  database?: string;
  /**
   * Collection name: 1 to 63 letters, digits or _ (the table's name).
   */
  collection: string;
  /**
   * What to do on the collection, as the MongoDB method of the same name: insert, find, update, replace, delete one or many, or count.
   */
  operation:
    | "insertOne"
    | "insertMany"
    | "find"
    | "findOne"
    | "updateOne"
    | "updateMany"
    | "replaceOne"
    | "deleteOne"
    | "deleteMany"
    | "countDocuments";
  /**
   * Document (insertOne) or documents (insertMany) to insert.
   */
  insert?: unknown;
  /**
   * Query filter: field equality and $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, $and, $or.
   */
  filter?:
    | {
        [k: string]: unknown;
      }
    | Marker;
  /**
   * Update operators: $set, $unset, $inc, $push (with $each).
   */
  update?:
    | {
        [k: string]: unknown;
      }
    | Marker;
  /**
   * Replacement document (replaceOne).
   */
  replacement?:
    | {
        [k: string]: unknown;
      }
    | Marker;
  /**
   * Top-level fields to return (field: 1) or to leave out (field: 0); _id unless _id: 0.
   */
  projection?:
    | {
        [k: string]: unknown;
      }
    | Marker;
  /**
   * Sort order: field: 1 (ascending) or -1 (descending); insertion order otherwise.
   */
  sort?:
    | {
        [k: string]: unknown;
      }
    | Marker;
  /**
   * The most documents a find returns.
   */
  limit?: NumberOrMarker;
  /**
   * How many matching documents a find skips before returning (with `sort`, for paging).
   */
  skip?: NumberOrMarker;
}
export interface CustomTransform {
  /**
   * Output field.
   */
  key: string;
  /**
   * Path of the value to transform.
   */
  json_path: string;
}
export interface TransformExtractArray {
  /**
   * Path of the source array.
   */
  from?: string;
  /**
   * Paths extracted from each element.
   */
  paths?: StringList;
  /**
   * Flatten nested arrays.
   */
  flatten?: boolean;
  /**
   * Drop duplicate values.
   */
  dedupe?: boolean;
}
export interface ExtractWithRegex {
  /**
   * Path of the text to match.
   */
  value: string;
  /**
   * Regular expression.
   */
  expr: string;
  /**
   * Names of the capture groups.
   */
  keys: StringList;
}
export interface ExtractWithCss {
  /**
   * JSON path to the HTML string; empty string means the data is the HTML.
   */
  value?: string;
  /**
   * CSS selector.
   */
  selector: string;
  /**
   * Output field.
   */
  key: string;
  /**
   * Attribute to read; an element lacking it yields null.
   */
  attribute?: string;
  /**
   * Take the inner HTML (exclusive with attribute).
   */
  html?: boolean;
  /**
   * Array of every match; otherwise the first match or null.
   */
  all?: boolean;
}
export interface BcryptTransform {
  /**
   * Output field.
   */
  key?: string;
  /**
   * Value to hash.
   */
  value?: string;
  /**
   * jq expression selecting the value to hash.
   */
  jq?: string;
  /**
   * bcrypt cost factor, 4 to 15 (default 10): each step doubles the hashing time.
   */
  cost?: NumberOrMarker;
}
export interface TransformPasswordGen {
  /**
   * Output field.
   */
  key: string;
  /**
   * Password length.
   */
  length: NumberOrMarker;
  /**
   * Include numbers.
   */
  numbers?: boolean;
  /**
   * Include lowercase letters.
   */
  lowercase_letters?: boolean;
  /**
   * Include uppercase letters.
   */
  uppercase_letters?: boolean;
  /**
   * Include symbols.
   */
  symbols?: boolean;
  /**
   * Include spaces.
   */
  spaces?: boolean;
  /**
   * Exclude look-alike characters.
   */
  exclude_similar_characters?: boolean;
  /**
   * Require at least one character of each enabled class.
   */
  strict?: boolean;
}
export interface TransformReplaceValues {
  /**
   * The replacement: what each selected value becomes (any JSON, e.g. null or "***").
   */
  target_value: unknown;
  /**
   * Only replace under this key.
   */
  target_key?: string;
  /**
   * Select strings containing this text (or matching it, with `regex: true`).
   */
  find_str?: string;
  /**
   * With `find_str`: replace only the matched parts of the string with this text.
   */
  new_str?: string;
  /**
   * A regular expression to find, or true to read find_str as one.
   */
  regex?: string | boolean;
  /**
   * Select values equal to an entry (numbers, booleans and null compared by their JSON text, so "0" matches 0).
   */
  values?: StringList;
}
export interface TransformFlatten {
  /**
   * Separator between joined keys.
   */
  key_separator: string;
  /**
   * Prefix of flattened keys.
   */
  prefix?: string;
  /**
   * JSONPath of the objects to flatten; every node it selects is flattened (default the whole data).
   */
  target?: string;
}
export interface TransformMath {
  /**
   * Output field to expression; fields referenced with the `target.` prefix.
   */
  expressions: {
    [k: string]: string | number;
  };
  /**
   * JSONPath of the records to compute on; every node it selects gets the fields (default the whole data).
   */
  target?: string;
  /**
   * Rounds half away from zero; stays a number.
   */
  decimal_places?: NumberOrMarker;
  /**
   * Keeps trailing zeros with decimal_places.
   */
  to_string?: boolean;
  /**
   * Convert each result: `int` truncates toward zero, `float` keeps the number, `bool` reads "", "0" and "false" as false, `string` leaves it as computed.
   */
  eval_type?: "int" | "float" | "string" | "bool";
}
export interface TransformAggregate {
  /**
   * JSONPath of the array; omit when the data is the array.
   */
  over?: string;
  /**
   * Output field; omit to replace the data.
   */
  key?: string;
  /**
   * Fields to sum.
   */
  sum?: StringList;
  /**
   * Fields to average.
   */
  avg?: StringList;
  /**
   * Fields to take the minimum of.
   */
  min?: StringList;
  /**
   * Fields to take the maximum of.
   */
  max?: StringList;
  /**
   * True by default when no other operation is given.
   */
  count?: boolean;
  /**
   * Summaries appear per group under `groups`.
   */
  group_by?: StringList;
}
export interface TransformFilterSearch {
  /**
   * JSONPath of the arrays to filter; every array it selects is filtered and the rest of the data kept (default the whole data).
   */
  target?: string;
  /**
   * Field path to Test.
   */
  conditions: {
    [k: string]: Test;
  };
}
export interface GenerateBytes {
  /**
   * Output field.
   */
  key: string;
  /**
   * Number of random bytes.
   */
  length: NumberOrMarker;
}
/**
 * AES-256-GCM; yields value, nonce, tag.
 */
export interface EncryptValue {
  /**
   * Output field.
   */
  key: string;
  /**
   * Data to encrypt.
   */
  data: unknown;
  /**
   * AES-256 key (supplied via a variable marker).
   */
  secret_key: string;
  /**
   * The 12-byte GCM nonce (24 hex digits, 16 Base64 characters or 12 characters of text); never reuse one with the same key.
   */
  nonce: string;
}
/**
 * Authenticated: a wrong key or altered ciphertext or tag fails.
 */
export interface DecryptValue {
  /**
   * Output field.
   */
  key: string;
  /**
   * The ciphertext to decrypt (as encrypt_value wrote it).
   */
  value: string;
  /**
   * The 12-byte nonce the value was encrypted with (24 hex digits, 16 Base64 characters or 12 characters of text).
   */
  nonce: string;
  /**
   * The AES-256-GCM authentication tag written by `encrypt_value`; a wrong or altered tag fails with "authentication failed".
   */
  tag: string;
  /**
   * AES-256 key (supplied via a variable marker).
   */
  secret_key: string;
}
export interface HmacSign {
  /**
   * Output field.
   */
  key: string;
  /**
   * Data to sign.
   */
  data: unknown;
  /**
   * Signing secret.
   */
  secret: string;
  /**
   * `sha1`, `sha256` (default) or `sha512`.
   */
  algorithm?: HmacAlgorithm;
  /**
   * `hex` (default) or `base64`.
   */
  encoding?: HmacEncoding;
}
export interface AddJWT {
  /**
   * Output field.
   */
  key: string;
  /**
   * Signing secret (supplied via a variable marker).
   */
  secret: string;
  /**
   * An object of claims, an array of input field names, or the string `all`.
   */
  data:
    | {
        [k: string]: unknown;
      }
    | StringList
    | string;
  /**
   * Lifetime such as 1h, 1d, 30m.
   */
  exp?: Duration;
}
export interface ReadJWT {
  /**
   * Output field.
   */
  key: string;
  /**
   * The token to read.
   */
  token: string;
  /**
   * Optional HMAC secret (reference a secret marker): when set, the signature, exp and nbf are verified and the result says verified: true; without it the token is only decoded (verified: false).
   */
  secret?: string;
}
export interface TransformCompress {
  /**
   * JSON path; empty means whole data; non-strings are compressed as compact JSON.
   */
  value: string;
  /**
   * Output field.
   */
  key: string;
  /**
   * `gzip` (default), `zlib`, `deflate`.
   */
  algorithm?: CompressAlgorithm;
  /**
   * `base64` (default), `base64url`, `hex`.
   */
  encoding?: CompressEncoding;
  /**
   * 0 to 9.
   */
  level?: number;
  /**
   * Bound in bytes of the input and of the decompressed output (default 8 MiB); a zip bomb is refused, not expanded.
   */
  max_compress_bytes?: number;
}
export interface TransformDecompress {
  /**
   * JSON path of the compressed text.
   */
  value: string;
  /**
   * Output field.
   */
  key: string;
  /**
   * `gzip` (default), `zlib`, `deflate`.
   */
  algorithm?: CompressAlgorithm;
  /**
   * The two base64 alphabets are interchangeable.
   */
  encoding?: CompressEncoding;
  /**
   * Parse the result as JSON.
   */
  json?: boolean;
  /**
   * Bound in bytes of the input and of the decompressed output (default 8 MiB); a zip bomb is refused, not expanded.
   */
  max_compress_bytes?: number;
}
/**
 * RFC 6238.
 */
export interface TransformTotp {
  /**
   * Shared secret.
   */
  secret: string;
  /**
   * Output field.
   */
  key: string;
  /**
   * `base32` (default), `hex`, `ascii`.
   */
  encoding?: TotpEncoding;
  /**
   * 6 (default) to 10.
   */
  digits?: TotpDigits;
  /**
   * Seconds, default 30.
   */
  period?: NumberOrMarker;
  /**
   * `sha1` (default), `sha256`, `sha512`.
   */
  algorithm?: TotpAlgorithm;
}
export interface TransformParseXlsx {
  /**
   * Base64 of .xlsx, .xls or .ods.
   */
  value: string;
  /**
   * Output field.
   */
  key: string;
  /**
   * Sheet name or 0-based index; default first.
   */
  sheet?: string | number;
  /**
   * First row holds headers; default true.
   */
  headers?: boolean;
  /**
   * Default 10000 rows.
   */
  limit?: NumberOrMarker;
  /**
   * `base64` (default) or `base64url`.
   */
  encoding?: DocumentEncoding;
  /**
   * Bound in bytes of the decoded document (default 16 MiB).
   */
  max_document_bytes?: number;
}
/**
 * Extracts text.
 */
export interface TransformParsePdf {
  /**
   * Base64 of the PDF.
   */
  value: string;
  /**
   * Output field.
   */
  key: string;
  /**
   * `base64` (default) or `base64url`.
   */
  encoding?: DocumentEncoding;
  /**
   * Bound in bytes of the decoded document (default 16 MiB).
   */
  max_document_bytes?: number;
  /**
   * When true, the result is an array of page texts instead of one text with pages joined by a blank line.
   */
  pages?: boolean;
}
export interface S3GeneratePresignedURL {
  /**
   * The S3 bucket that holds the object.
   */
  bucket: string;
  /**
   * The object's key inside the bucket.
   */
  file_key: string;
  /**
   * Lifetime of the URL in seconds.
   */
  expiration_secs: NumberOrMarker;
  /**
   * S3 endpoint.
   */
  endpoint: string;
  /**
   * The bucket's region (signed into the URL), e.g. `eu-west-1`.
   */
  region: string;
  /**
   * Access key id (supplied via a variable marker).
   */
  access_key_id: string;
  /**
   * Secret access key (supplied via a variable marker).
   */
  secret_access_key: string;
  /**
   * Output field.
   */
  key: string;
  /**
   * `get` (default, download link) or `put` (upload target).
   */
  operation?: "get" | "put";
  /**
   * Where in the data to read the file key from.
   */
  json_path?: string;
}
/**
 * A signed URL for one object: signed locally, nothing is sent. The action's data is `{ url, method, headers, expires_at }`.
 */
export interface SignedUrlOperation {
  /**
   * Bucket name.
   */
  bucket: string;
  /**
   * Object key (path inside the bucket); percent-encoded per segment, `/` kept.
   */
  key: string;
  /**
   * How long the URL is valid, 1s to 7d; default 15m.
   */
  expires?: Duration;
  /**
   * Upload only: the Content-Type the upload must send (it is signed).
   */
  content_type?: string;
}
/**
 * AWS S3 signed URLs (SigV4 query signing).
 */
export interface AwsIntegration {
  /**
   * Name of the credential: secrets SERVICE__SECRET__<NAME>_ACCESS_KEY_ID, SERVICE__SECRET__<NAME>_SECRET_ACCESS_KEY and optionally SERVICE__SECRET__<NAME>_SESSION_TOKEN.
   */
  credential: string;
  /**
   * AWS region; default us-east-1.
   */
  region?: string;
  /**
   * Service URL to sign for instead of the provider's (an S3-compatible store, an emulator): http(s), optionally with a base path.
   */
  endpoint?: string;
  /**
   * A URL to upload the object with PUT.
   */
  get_signed_upload_url?: SignedUrlOperation;
  /**
   * A URL to download the object with GET.
   */
  get_signed_download_url?: SignedUrlOperation;
}
/**
 * Google Cloud Storage V4 signed URLs (RSA-SHA256 with a service-account key).
 */
export interface GoogleIntegration {
  /**
   * Name of the credential: secret SERVICE__SECRET__<NAME>_SERVICE_ACCOUNT holds the service account's JSON key (client_email, private_key).
   */
  credential: string;
  /**
   * Service URL to sign for instead of the provider's (an S3-compatible store, an emulator): http(s), optionally with a base path.
   */
  endpoint?: string;
  /**
   * A URL to upload the object with PUT.
   */
  get_signed_upload_url?: SignedUrlOperation;
  /**
   * A URL to download the object with GET.
   */
  get_signed_download_url?: SignedUrlOperation;
}
