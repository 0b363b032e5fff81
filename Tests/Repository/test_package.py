"""The package's shape as Package.swift declares it: every module a target imports is one of its declared dependencies
(SwiftPM finds an undeclared product only while some other target happens to build it)."""

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
