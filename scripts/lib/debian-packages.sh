# Sourced by the scripts: ensure_debian_packages PACKAGE… installs with apt-get those of the Debian packages that
# are not installed yet (a fresh machine or CI has none of them).
ensure_debian_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "installing ${missing[*]} (apt-get)" >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}
