#!/usr/bin/env bash
# help_examples.sh GOODPUT SOURCE_DIR WORK_DIR: every subcommand that `goodput --help` lists ends
# its --help with examples, and every example runs as written from the source tree (a checkout's
# root), exit 0. Shortened where it simulates: run, sweep and sensitivity get a 2-hour horizon
# and 2 seeds (an example's --seeds N becomes 2), --quiet, and an --out under WORK_DIR (replacing
# the example's own); run skips the break-even runs, sensitivity the robustness line; import
# writes its --out FILE under WORK_DIR (--out - stays stdout). A shell
# redirection after an example (`> FILE`) is dropped: the command alone runs.
set -u
bin=$1; src=$2; work=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
goodput() { "$bin" "$@"; }
cd "$src" || fail "no $src"
subs=$("$bin" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
[ -n "$subs" ] || fail "goodput --help lists no subcommands"
n=0
for sub in $subs; do
  examples=$("$bin" "$sub" --help | awk '/^Examples/ {on = 1; next} on && /^  goodput / {sub(/^  /, ""); print}')
  [ -n "$examples" ] || fail "goodput $sub --help has no examples"
  while IFS= read -r line; do
    n=$((n + 1))
    cmd=${line%% > *}
    case "$sub" in
      run | sweep | sensitivity)
        cmd=$(sed -E -e "s#--out [^ ]+##" -e "s#--seeds [0-9]+#--seeds 2#" <<<"$cmd")
        cmd+=" --set /horizon_hours=2 --set /seeds=2 --quiet --threads 2 --out $work/example-$n"
        [ "$sub" = run ] && cmd+=" --no-break-even"
        [ "$sub" = sensitivity ] && cmd+=" --robustness-points 0"
        ;;
      import)  # into WORK_DIR, not the source tree
        cmd=$(sed -E "s#--out [^-][^ ]*#--out $work/example-$n.csv#" <<<"$cmd")
        ;;
    esac
    echo "example $n ($sub): $cmd"
    eval "$cmd" >"$work/example-$n.log" 2>&1 || { cat "$work/example-$n.log"; fail "example failed: $line"; }
  done <<<"$examples"
done
echo "ok: $n examples of $(wc -w <<<"$subs") commands ran"
