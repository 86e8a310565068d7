#!/bin/sh
# Builds jq 1.8.2 (+ its pinned oniguruma) to wasm with Debian's emscripten (apt-get install emscripten
# autoconf automake libtool make), reproducibly from the two git commits below, then regenerates
# ../jq-engine.mjs and ../jq-wasm.mjs (node gen.mjs). Usage: build.sh <jq git dir> <oniguruma git dir>.
set -eu
JQ_COMMIT=34f7186b86743a083a589741b6cea95293524108   # tag jq-1.8.2
ONIG_COMMIT=4ef89209a239c1aea328cf13c05a2807e5c146d1 # jq-1.8.2's vendor/oniguruma submodule
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/pw-jq-build}
rm -rf "$WORK" && mkdir -p "$WORK/jq/vendor/oniguruma"
git --git-dir="$1" archive "$JQ_COMMIT" | tar -x -C "$WORK/jq"
git --git-dir="$2" archive "$ONIG_COMMIT" | tar -x -C "$WORK/jq/vendor/oniguruma"
cd "$WORK/jq"
# No .git in an archive: the version comes from the tag.
printf '#!/bin/sh\necho 1.8.2\n' > scripts/version
export SOURCE_DATE_EPOCH=0
# Debian packages emscripten's JS dependencies (acorn) where a non-Debian node does not look.
export NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs
autoreconf -i >/dev/null 2>&1
# The stack is where jq's recursion lives (printing, comparing, freeing nested values): 64 MB covers the
# 10,000 levels jq's parser allows with room to spare; deeper is refused by jq itself. Memory stops at
# 1 GB: an allocation beyond it aborts, which the engine reports as an error and then replaces the instance.
emconfigure ./configure --with-oniguruma=builtin --disable-docs --disable-valgrind --disable-maintainer-mode \
  --host=wasm32-unknown-emscripten CFLAGS='-O2' >/dev/null
# Single-threaded wasm: no -pthread (emscripten's pthread stubs serve jq's thread-local keys).
NOPT="PTHREAD_CFLAGS= PTHREAD_LIBS="
emmake make -j2 -C vendor/oniguruma >/dev/null
emmake make -j2 $NOPT src/builtin.inc src/config_opts.inc src/version.h >/dev/null
emmake make -j2 $NOPT libjq.la >/dev/null
emcc -O2 -I src "$HERE/pw_jq.c" .libs/libjq.a vendor/oniguruma/src/.libs/libonig.a -o "$WORK/jq.js" \
  -sTOTAL_STACK=67108864 -sINITIAL_MEMORY=134217728 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=1073741824 \
  -sSTACK_OVERFLOW_CHECK=2 -sWASM_ASYNC_COMPILATION=0 -sMODULARIZE=1 -sEXPORT_NAME=createJq -sENVIRONMENT=node \
  -sEXPORTED_FUNCTIONS=_pw_compile,_pw_run,_pw_free,_malloc,_free \
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8,getValue
node "$HERE/../gen.mjs" "$WORK"
