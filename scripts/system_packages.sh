# Sourced by the scripts beside it. ensure_packages COMMAND:PACKAGE ...: install the Debian
# packages whose command is missing, in one apt-get run, when we are root with apt-get (a
# fresh CI machine); otherwise warn, naming the package. Nothing here fails the caller:
# what needs a missing tool says so itself (the sandbox refuses untrusted code without
# bubblewrap; the browser tests skip with the reason).
ensure_packages() {
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${missing[*]} (apt-get)" >&2
    { apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
      echo "warning: could not install ${missing[*]}" >&2
  else
    echo "warning: missing Debian packages ${missing[*]}: without bubblewrap untrusted code" \
      "is refused (docs/sandbox.md); without chromium the browser tests skip" >&2
  fi
}
