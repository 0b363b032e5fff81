"""The package's shape as Package.swift declares it: every module a target imports is one of its declared dependencies
(SwiftPM finds an undeclared product only while some other target happens to build it), and the README's module table
is Package.swift's graph of our own modules."""

import json
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Modules of the toolchain and the operating system, which no Package.swift declares.
SYSTEM_MODULES = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch", "Synchronization",
    "Glibc", "Musl", "Darwin", "WinSDK", "Android", "os", "Observation", "RegexBuilder", "_Concurrency", "Distributed",
    "Testing", "XCTest",
}

IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*(?:public\s+|package\s+|internal\s+|private\s+|fileprivate\s+)?import\s+"
                    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][\w]*)", re.M)


def package():
    output = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(output.stdout)


def dependencies(target):
    """The names a target may import: its targets' names and its products' names."""
    names = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def folder(target):
    if target.get("path"):
        return ROOT / target["path"]
    return ROOT / ("Tests" if target["type"] == "test" else "Sources") / target["name"]


def test_every_imported_module_is_a_declared_dependency():
    manifest = package()
    missing = []
    for target in manifest["targets"]:
        allowed = dependencies(target) | SYSTEM_MODULES | {target["name"]}
        for source in sorted(folder(target).rglob("*.swift")):
            for module in IMPORT.findall(source.read_text(encoding="utf-8")):
                if module not in allowed:
                    missing.append(f"{source.relative_to(ROOT)} imports {module}, which {target['name']} does not declare")
    assert not missing, "\n".join(missing)


def readme_modules():
    """The README's `## Modules` table as module → its own modules it depends on, in the table's order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Modules\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        table[cells[0].strip("`")] = re.findall(r"`([^`]+)`", cells[2])
    return table


def test_the_readmes_module_table_is_package_swifts_graph():
    manifest = package()
    targets = {target["name"]: target for target in manifest["targets"]}
    products = [target for product in manifest["products"] for target in product["targets"]]
    ours = set(targets)
    graph = {name: [dependency for dependency in
                    [d.get("byName", d.get("target", [None]))[0] for d in targets[name]["dependencies"]]
                    if dependency in ours]
             for name in products}
    table = readme_modules()
    assert list(table) == products, "the README's modules are not Package.swift's products, in its order"
    for name in products:
        assert table[name] == graph[name], f"{name}: the README says {table[name]}, Package.swift {graph[name]}"
