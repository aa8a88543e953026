# Shared by the package tests (sourced).
# without_seconds FILE: FILE without the "seconds" member a command line adds as its last (the
# library's JSON entry points print none), byte for byte otherwise.
without_seconds() {
  python3 -c 'import re, sys; sys.stdout.write(re.sub(r",\n *\"seconds\": [-+.0-9eE]+\n}", "\n}", open(sys.argv[1]).read()))' "$1"
}
