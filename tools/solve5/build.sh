#!/bin/sh
# Build the offline solver: tools/solve5/build.sh [OUT] (default tools/solve5/solve5).
# Needs only a C compiler (gcc or cc); the game never needs it.
set -e
here=$(dirname "$0")
out=${1:-$here/solve5}
cc=${CC:-$(command -v gcc || command -v cc)}
flags="-O3 -std=c11 -D_POSIX_C_SOURCE=199309L -Wall -Wextra"
# -march=native where the compiler accepts it (a build for this machine only)
if $cc -march=native -x c -o /dev/null - <<'C' 2>/dev/null
int main(void) { return 0; }
C
then flags="$flags -march=native"; fi
$cc $flags -o "$out" "$here/solve5.c"
