#!/usr/bin/env bash
# mount_point.sh GOODPUT SCENARIO WORKDIR
# In a user and mount namespace of its own (skipped, exit 0, where none can be made): a report
# written to a folder that is a mount point (as a container volume is) is filled file by file
# and replaced on a rerun; a tiny file system that fills up gives exit 1 naming the file and
# leaves the earlier report intact, with nothing beside it.
set -u
g=$1; scenario=$2; work=$3
if ! unshare -rm true 2>/dev/null; then echo "skipped: no user namespace here"; exit 0; fi
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
exec unshare -rm bash -s "$g" "$scenario" <<'INNER'
set -u
g=$1; scenario=$2
fail() { echo "FAIL: $*"; exit 1; }
run() { "$g" run "$scenario" --quiet --threads 1 --no-break-even "$@"; }
mkdir vol small
mount -t tmpfs -o size=8m tmpfs vol 2>/dev/null || { echo "skipped: cannot mount tmpfs"; exit 0; }
run --set /seed=1 --out vol || fail "first run into a mount point"
run --set /seed=1 --out ref1 && run --set /seed=2 --out ref2 || fail "references"
diff -r vol ref1 >/dev/null || fail "the mount point's report differs from one in a plain folder"
run --set /seed=2 --out vol || fail "rerun into a mount point"
diff -r vol ref2 >/dev/null || fail "the rerun did not replace the report"
echo notes >vol/notes.md
run --out vol 2>err.log; [ $? = 2 ] && grep -q notes.md err.log || fail "a user's file on the volume: $(cat err.log)"
[ -f vol/notes.md ] || fail "notes.md was removed"
# A full file system: one report fits, a larger one cannot.
size=$(du -sk ref1 | cut -f1)
mount -t tmpfs -o size=$((size + 8))k tmpfs small || fail "cannot mount the small tmpfs"
run --set /seed=1 --out small/rep || fail "the first report should fit"
run --set /seed=2 --set /seeds=40 --out small/rep 2>err.log; code=$?
[ $code = 1 ] && grep -q "No space left on device" err.log || fail "full disk: exit $code: $(cat err.log)"
grep -q "small/" err.log || fail "the error names no file: $(cat err.log)"
diff -r small/rep ref1 >/dev/null || fail "a full disk changed the earlier report"
[ -z "$(ls -A small | grep -v '^rep$')" ] || fail "left $(ls -A small)"
echo "mount point: all passed"
INNER
