#!/usr/bin/env bash
# completion.sh GOODPUT: `goodput completion bash|zsh|fish` scripts are generated from the
# command line itself. The bash script passes `bash -n`, names every subcommand `goodput --help`
# lists, and, sourced, completes as a user types: commands, each subcommand's flags (every long
# flag its --help lists), describe's topics, completion's shells and the scenario's keys after
# --set, --axis, --seek and --param. zsh and fish: `zsh -n` /
# `fish -n` where installed, else the script's shape (every subcommand present).
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
subs=$("$bin" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
[ "$(wc -w <<<"$subs")" -ge 7 ] || fail "goodput --help lists too few subcommands: $subs"

"$bin" completion bash >"$tmp/goodput.bash" || fail "completion bash"
bash -n "$tmp/goodput.bash" || fail "the bash script is not valid bash"
for s in $subs; do grep -qw -- "$s" "$tmp/goodput.bash" || fail "bash script lacks $s"; done

# complete WORDS...: what the sourced script offers for the last word.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _goodput; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$tmp/goodput.bash" "$@"
}
offers() {  # offers "WORDS" EXPECTED...: each EXPECTED is offered
  local got; read -ra words <<<"$1"; shift
  [ "${words[-1]}" = "''" ] && words[-1]=""
  got=$(complete_words "${words[@]}")
  for want in "$@"; do grep -qx -- "$want" <<<"$got" || fail "'${words[*]}' does not offer $want (got: $(tr '\n' ' ' <<<"$got"))"; done
}
offers "goodput ru" run
offers "goodput ''" $subs -V --version
offers "goodput run --se" --seeds --set
offers "goodput run my.json --seed" --seeds
offers "goodput sweep x.json --ax" --axis
offers "goodput describe s" schema strategies
offers "goodput completion ''" bash zsh fish
# Every long flag of every subcommand's --help is offered after "goodput SUB --".
for s in $subs; do
  flags=$("$bin" "$s" --help | grep -oE '^  (-[a-zA-Z],)?--[a-z][a-z-]*' | grep -oE -- '--[a-z][a-z-]*')
  [ -z "$flags" ] || offers "goodput $s --" $flags
done
# Flags whose value starts with a scenario JSON pointer offer the declared keys: with "=" after
# --set and --axis (a value follows), alone after --seek and --param.
offers "goodput run x.json --set /cluster/spa" /cluster/spare_domains=
offers "goodput run x.json --set /strategies/ntp_boost/max" /strategies/ntp_boost/max_power=
offers "goodput run x.json --set /failures/classes/0/mt" /failures/classes/0/mtbf_hours=
offers "goodput sweep x.json --axis /job/t" /job/tp=
offers "goodput sweep x.json --set /recovery/det" /recovery/detection_s=
offers "goodput sweep x.json --seek /cluster/spare_d" /cluster/spare_domains
offers "goodput sensitivity x.json --param /recovery/rest" /recovery/restart_s
offers "goodput explain-step x.json --set /job/model/hi" /job/model/hidden=
[ "$(complete_words goodput run x.json --set /)" = "$(complete_words goodput sweep x.json --set /)" ] ||
  fail "run and sweep offer different keys after --set"
[ "$(complete_words goodput run x.json --set / | wc -l)" -ge 150 ] || fail "too few keys offered after --set"
complete_words goodput run x.json --set / | grep -vq '=$' && fail "a key offered after --set lacks its ="
complete_words goodput sweep x.json --seek / | grep -q '=$' && fail "a key offered after --seek has an ="
# A value flag's value is left to file names: nothing offered after --out.
[ -z "$(complete_words goodput run --out '')" ] || fail "completion offers words after --out"

"$bin" completion zsh >"$tmp/_goodput" || fail "completion zsh"
head -1 "$tmp/_goodput" | grep -qx '#compdef goodput' || fail "zsh script lacks #compdef"
for s in $subs; do grep -q "^        '$s:" "$tmp/_goodput" || fail "zsh script lacks $s"; done
grep -q "'\*--set\[[^]]*\]:pointer:{compadd -S = -a _goodput_pointers}'" "$tmp/_goodput" ||
  fail "zsh script does not complete keys after --set"
grep -q '^  _goodput_pointers=(/name ' "$tmp/_goodput" || fail "zsh script lacks the keys"
if command -v zsh >/dev/null; then zsh -n "$tmp/_goodput" || fail "zsh -n"; fi

"$bin" completion fish >"$tmp/goodput.fish" || fail "completion fish"
for s in $subs; do
  grep -q "__fish_use_subcommand -f -a $s " "$tmp/goodput.fish" || fail "fish script lacks $s"
done
grep -v '^#' "$tmp/goodput.fish" | grep -qv '^complete -c goodput ' && fail "fish script has a line that is not a complete command"
grep -q -- "-l set -r -f -a '/name= .*/cluster/spare_domains= " "$tmp/goodput.fish" ||
  fail "fish script does not complete keys after --set"
if command -v fish >/dev/null; then fish -n "$tmp/goodput.fish" || fail "fish -n"; fi
echo "ok: completion scripts for $(wc -w <<<"$subs") commands"
