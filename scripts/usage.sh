# Sourced by the shell scripts of scripts/: the usage of a script is its header comment (the comment lines after
# the shebang, up to the first line of code), which `--help` prints; `usage_fail` says what is wrong, prints the
# usage and exits 2. What scripts/command-line.ts does for the commands in TypeScript (tests/unit/commands.test.ts
# runs each both ways).
#   . "$(dirname "$0")/usage.sh"; usage_help "$@"

usage_text() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

# --help or -h anywhere among the arguments: the usage, and exit 0.
usage_help() {
  for a in "$@"; do
    case "$a" in -h | --help) usage_text; exit 0 ;; esac
  done
}

# What is wrong, then the usage, on stderr; exit 2.
usage_fail() {
  { echo "$(basename "$0"): $*"; echo; usage_text; } >&2
  exit 2
}
