#!/usr/bin/env bash
# Builds eSpeak NG to WebAssembly for the engine's eSpeak worker: espeak-ng.wasm and its loader
# espeak-ng.cjs, both committed beside this script (CI and users need no compiler).
#
#   bash native/espeak-ng/build.sh <espeak-ng source>
#
# <espeak-ng source>: a checkout of https://github.com/echogarden-project/espeak-ng, branch
# "fork", commit b723b62cb78f7e861a1bb4408b00d49db84afeac: the sources of the wasm2js build in
# @echogarden/espeak-ng-emscripten 0.3.5, whose data file (espeak-ng.data) this build reads, so
# the phoneme data and the code that reads it are one version. Only its src/ is compiled.
# Needs Debian's emscripten (3.1.6: apt-get install emscripten); its JavaScript optimiser needs
# acorn, which Debian installs under /usr/share/nodejs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "${1:?usage: build.sh <espeak-ng source>}" && pwd)"
out="${2:-$here}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"

sources=(
  src/ucd-tools/src/{case,categories,ctype,proplist,scripts,tostring}.c
  src/libespeak-ng/{common,compiledata,compiledict,dictionary,encoding,error,espeak_api,ieee80,intonation}.c
  src/libespeak-ng/{langopts,mnemonics,numbers,readclause,phoneme,phonemelist,setlengths,soundicon}.c
  src/libespeak-ng/{spect,speech,ssml,synthdata,synthesize,translate,translateword,tr_languages}.c
  src/libespeak-ng/{voices,wavegen,klatt,sPlayer}.c
)
cxx_sources=(src/speechPlayer/src/{frame,speechPlayer,speechWaveGenerator}.cpp)
flags=(
  -O3 -I"$here" -I"$src/src/include" -I"$src/src/include/compat" -I"$src/src/speechPlayer/include"
  -I"$src/src/ucd-tools/src/include" -D_BSD_SOURCE -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200112L
  -DLIBESPEAK_NG_EXPORT -DPATH_ESPEAK_DATA='"/usr/share/espeak-ng-data"' -include "$here/config.h"
  -Wno-everything
)
objects=()
for file in "${sources[@]}" "${cxx_sources[@]}"; do
  object="$work/$(basename "${file%.*}").o"
  case "$file" in
    *.cpp) em++ "${flags[@]}" -c "$src/$file" -o "$object" ;;
    *) emcc "${flags[@]}" -std=gnu99 -c "$src/$file" -o "$object" ;;
  esac
  objects+=("$object")
done
emcc "${flags[@]}" -c "$here/narration-espeak.c" -o "$work/narration-espeak.o"
objects+=("$work/narration-espeak.o")

exported='_malloc,_free,_ns_initialize,_ns_set_voice_by_name,_ns_set_voice_by_language,_ns_set_parameter,_ns_synthesize,_ns_heap_end,_ns_samples,_ns_sample_count,_ns_events,_ns_event_count,_ns_phoneme_trace,_ns_text_to_phonemes,_ns_list_voices'
em++ -O3 "${objects[@]}" -o "$work/espeak-ng.js" \
  -s WASM=1 -s MODULARIZE=1 -s EXPORT_NAME=loadEspeakNg -s ENVIRONMENT=node \
  -s FORCE_FILESYSTEM=1 -s ALLOW_MEMORY_GROWTH=1 -s EXIT_RUNTIME=0 \
  -s NODEJS_CATCH_EXIT=0 -s NODEJS_CATCH_REJECTION=0 \
  -s EXPORTED_FUNCTIONS="[\"${exported//,/\",\"}\"]" \
  -s EXPORTED_RUNTIME_METHODS='["FS","UTF8ToString","stringToUTF8","lengthBytesUTF8"]'
cp "$work/espeak-ng.wasm" "$out/espeak-ng.wasm"
cp "$work/espeak-ng.js" "$out/espeak-ng.cjs"

# Where each data file lies in the package's espeak-ng.data (its loader's table, read once here).
package="$here/../../node_modules/@echogarden/espeak-ng-emscripten"
node -e '
  const fs = require("fs");
  const [loader, out] = process.argv.slice(1);
  const table = [...fs.readFileSync(loader, "utf8").matchAll(/filename:"([^"]+)",start:(\d+),end:(\d+)/g)]
    .map((m) => [m[1], Number(m[2]), Number(m[3])]);
  fs.writeFileSync(out, JSON.stringify(table).replaceAll("],[", "],\n[") + "\n");
' "$package/espeak-ng.js" "$out/espeak-ng-data-files.json"
ls -l "$out"/espeak-ng.{wasm,cjs} "$out/espeak-ng-data-files.json"
