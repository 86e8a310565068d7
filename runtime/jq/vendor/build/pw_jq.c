// The C side of pipewright's jq engine (runtime/jq/engine.ts): libjq's API instead of the CLI's main(), so a
// program is compiled once and run many times. Results go back as text in one buffer per call:
// outputs (compact JSON, one per line) and, for an error, its kind and message.
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>
#include "jv.h"
#include "jq.h"

static jv messages; // compile errors of the last pw_compile

static void collect(void *data, jv msg) {
  (void)data;
  if (jv_get_kind(msg) != JV_KIND_STRING) msg = jv_dump_string(msg, 0);
  messages = jv_array_append(messages, msg);
}

static void ignore(void *data, jv msg) { (void)data; jv_free(msg); }

/** A compiled program, or NULL with the compile errors in *err (a malloc'd string). */
EMSCRIPTEN_KEEPALIVE jq_state *pw_compile(const char *program, char **err) {
  jq_state *jq = jq_init();
  if (!jq) return NULL;
  messages = jv_array();
  jq_set_error_cb(jq, collect, NULL);
  jq_set_debug_cb(jq, ignore, NULL);
  jq_set_stderr_cb(jq, ignore, NULL);
  jv args = JV_OBJECT(jv_string("ARGS"), JV_OBJECT(jv_string("positional"), jv_array(), jv_string("named"), jv_object()));
  int ok = jq_compile_args(jq, program, args);
  jv text = jv_string("");
  int n = jv_array_length(jv_copy(messages));
  for (int i = 0; i < n; i++) {
    if (i) text = jv_string_append_str(text, "\n");
    text = jv_string_concat(text, jv_array_get(jv_copy(messages), i));
  }
  jv_free(messages);
  messages = jv_invalid();
  if (ok) {
    jv_free(text);
    *err = NULL;
    return jq;
  }
  *err = strdup(jv_string_value(text));
  jv_free(text);
  jq_teardown(&jq);
  return NULL;
}

EMSCRIPTEN_KEEPALIVE void pw_free(jq_state *jq) { jq_teardown(&jq); }

/**
 * Runs `jq` on the JSON text `input`. Returns a malloc'd string: one line per output, then a last line
 * "" (ok), "E<json>" (uncaught error: its message value), "H<code>\t<json message>" (halt/halt_error),
 * or "I<text>" (the input did not parse, e.g. nested deeper than 10,000).
 */
EMSCRIPTEN_KEEPALIVE char *pw_run(jq_state *jq, const char *input) {
  jv out = jv_string("");
  jv value = jv_parse(input);
  if (!jv_is_valid(value)) {
    jv msg = jv_invalid_get_msg(value);
    out = jv_string_append_str(out, "I");
    out = jv_string_concat(out, jv_get_kind(msg) == JV_KIND_STRING ? msg : jv_dump_string(msg, 0));
  } else {
    jq_start(jq, value, 0);
    jv result;
    while (jv_is_valid(result = jq_next(jq))) {
      out = jv_string_concat(out, jv_dump_string(result, 0));
      out = jv_string_append_str(out, "\n");
    }
    if (jq_halted(jq)) {
      jv code = jq_get_exit_code(jq);
      jv msg = jq_get_error_message(jq);
      int n = !jv_is_valid(code) ? 0 : jv_get_kind(code) == JV_KIND_NUMBER ? (int)jv_number_value(code) : 5;
      jv_free(code);
      out = jv_string_concat(out, jv_string_fmt("H%d\t", n));
      out = jv_string_concat(out, jv_is_valid(msg) ? jv_dump_string(msg, 0) : (jv_free(msg), jv_string("")));
    } else if (jv_invalid_has_msg(jv_copy(result))) {
      out = jv_string_append_str(out, "E");
      out = jv_string_concat(out, jv_dump_string(jv_invalid_get_msg(jv_copy(result)), 0));
    }
    jv_free(result);
  }
  char *text = strdup(jv_string_value(out));
  jv_free(out);
  return text;
}
