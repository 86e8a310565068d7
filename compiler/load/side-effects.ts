// Which actions change something outside the run (a write, a message, a call that is not a read):
// what lint-assert-gates.ts warns about when one can run after a failed assert.
import { isObj, type Obj } from './walk.ts';

/** What the action does outside the run, in words ("a POST request"), or undefined for a read. */
export function sideEffect(a: Obj): string | undefined {
  if (isObj(a.http) || typeof a.url === 'string') {
    const method = isObj(a.http) && typeof a.http.method === 'string' ? a.http.method.trim() : 'GET';
    return SAFE_METHODS.has(method.toUpperCase()) ? undefined : `a ${method} request`;
  }
  if (typeof a.query === 'string') return a.multi === true || writesSql(a.query) ? 'a database write' : undefined;
  if (isObj(a.document_operation)) {
    const op = a.document_operation.operation;
    return typeof op === 'string' && DOCUMENT_READS.has(op) ? undefined : `a document ${typeof op === 'string' ? op : 'operation'}`;
  }
  if (isObj(a.sftp)) {
    const op = a.sftp.operation;
    return typeof op === 'string' && (op === 'get' || op === 'list') ? undefined : `an SFTP ${typeof op === 'string' ? op : 'operation'}`;
  }
  if (isObj(a.state)) return Object.keys(a.state).some((k) => STATE_WRITES.has(k)) ? 'a state write' : undefined;
  for (const [field, what] of ALWAYS) if (a[field] !== undefined) return what;
  return undefined;
}

/** RFC 9110 §9.2.1: the methods a client uses without asking for a change. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const DOCUMENT_READS = new Set(['find', 'findOne', 'countDocuments']);
const STATE_WRITES = new Set(['set', 'advance', 'increment', 'delete']);
const ALWAYS: ReadonlyArray<[string, string]> = [
  ['command', 'a command'], ['email', 'an email'], ['ws_publish', 'a WebSocket publish'], ['mqtt_publish', 'an MQTT publish'],
  ['emit_metric', 'a metric'], ['agent', 'an agent'], ['only_new', 'an only_new record of seen ids'],
];

/** SQL that may write: anything but a plain read (SELECT/WITH/SHOW/EXPLAIN/VALUES/TABLE without a
 *  writing word; a WITH may hold a DELETE, a SELECT a FOR UPDATE lock or nextval()). */
function writesSql(sql: string): boolean {
  const text = sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  const first = /^\s*\(*\s*([a-z]+)/i.exec(text)?.[1]?.toLowerCase();
  if (!first || !READ_STARTS.has(first)) return true;
  return WRITE_WORDS.test(text);
}

const READ_STARTS = new Set(['select', 'with', 'show', 'explain', 'values', 'table', 'describe', 'desc']);
const WRITE_WORDS = /\b(insert|update|delete|merge|upsert|create|drop|alter|truncate|grant|revoke|call|copy|lock|nextval|setval|analyze)\b/i;
