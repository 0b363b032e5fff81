# Sourced by the scripts: makes sure .venv exists with scripts/python/requirements.txt installed, and exports
# OPENCAREKIT_PYTHON, the interpreter the tests and benchmarks use.
ensure_python_env() {
    local root venv
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    venv="$root/.venv"
    if ! command -v python3 >/dev/null 2>&1; then
        echo "installing python3 (apt-get)" >&2
        apt-get update -qq && apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
    fi
    if [ ! -x "$venv/bin/python3" ]; then
        if ! python3 -m venv "$venv" >/dev/null 2>&1; then
            echo "installing python3-venv (apt-get)" >&2
            apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
            rm -rf "$venv"
            python3 -m venv "$venv"
        fi
    fi
    if ! "$venv/bin/python3" -c "import dateutil, jsonschema, playwright, axe_playwright_python, pytest, schemathesis, zxingcpp, PIL, fhir.resources, icalendar, recurring_ical_events, http_ece, py_vapid, pypdf" >/dev/null 2>&1 \
        || ! cmp -s "$root/scripts/python/requirements.txt" "$venv/.requirements.txt"; then
        echo "installing Python packages into .venv" >&2
        "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/scripts/python/requirements.txt"
        cp "$root/scripts/python/requirements.txt" "$venv/.requirements.txt"
    fi
    export OPENCAREKIT_PYTHON="$venv/bin/python3"
}
