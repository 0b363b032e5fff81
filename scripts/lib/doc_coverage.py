"""Which public declarations of a module have no documentation, from the symbol graphs `swift package
dump-symbol-graph` writes (run by scripts/docs).

A declaration counts as documented when it has a doc comment of its own, or shows one DocC takes from elsewhere: the
requirement it implements (a member that satisfies a protocol's requirement, `sourceOrigin`), the protocol requirement
it implements by default (`defaultImplementationOf`), or a comment inherited from another module. Declarations the
compiler writes (synthesized ones) are not counted.

    doc_coverage.py SYMBOLGRAPH_DIR MODULE...     prints each undocumented declaration; exit status 1 if any
"""

import json
import pathlib
import sys


def graphs(folder, module):
    """The module's symbol graph and those of its extensions to other modules' types."""
    return [folder / f"{module}.symbols.json"] + sorted(folder.glob(f"{module}@*.symbols.json"))


def undocumented(folder, module):
    missing = []
    for path in graphs(folder, module):
        graph = json.loads(path.read_text(encoding="utf-8"))
        inherits = set()
        for relationship in graph.get("relationships", []):
            if relationship.get("sourceOrigin") or relationship["kind"] in ("defaultImplementationOf", "requirementOf_inherited"):
                inherits.add(relationship["source"])
        for symbol in graph.get("symbols", []):
            precise = symbol["identifier"]["precise"]
            if symbol.get("accessLevel") not in ("public", "open") or "::SYNTHESIZED::" in precise:
                continue
            if symbol.get("docComment", {}).get("lines") or precise in inherits:
                continue
            location = symbol.get("location", {})
            where = location.get("uri", "").replace("file://", "")
            line = location.get("position", {}).get("line", -1) + 1
            missing.append(f"{where}:{line}: {module}: {'.'.join(symbol['pathComponents'])} ({symbol['kind']['displayName']})")
    return missing


def main():
    folder = pathlib.Path(sys.argv[1])
    missing = []
    for module in sys.argv[2:]:
        found = undocumented(folder, module)
        print(f"{module}: {len(found)} public declarations without documentation", file=sys.stderr)
        missing += found
    for line in sorted(set(missing)):
        print(line)
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
