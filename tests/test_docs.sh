#!/bin/sh
# test_docs.sh - the deviations table (maps/README.md, "Where iiowire
# differs from the kernel") and the source agree: every K-n a source file
# or document names is a row of the table, and every row is named by the
# source or a manual page. Usage: test_docs.sh SOURCE_DIR.
set -u
src=$1
cd "$src" || exit 1
rows=$(grep -oE '^\| K-[0-9]+ ' maps/README.md | grep -oE 'K-[0-9]+' | sort -u)
named=$(grep -rhoE 'K-[0-9]+' drivers server client protocol --include='*.[ch]' --include='*.md' |
	sort -u)
failed=0
[ -n "$rows" ] || { echo "FAIL: no deviations table in maps/README.md"; exit 1; }
for k in $named; do
	echo "$rows" | grep -qx "$k" || { echo "FAIL: $k is named but not in the table"; failed=1; }
done
for k in $rows; do
	echo "$named" | grep -qx "$k" || { echo "FAIL: row $k is named nowhere"; failed=1; }
done
echo "$(echo "$rows" | wc -l) deviations, each named in the source"
exit $failed
