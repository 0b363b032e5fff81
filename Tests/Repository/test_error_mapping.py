"""No handler turns an error into a response by hand: errors render themselves (`AnsweringError`, in
Sources/OpenCareKitServer/HTTP/ErrorResponses.swift) and `ErrorMiddleware` is the one place that answers with them and
logs faults. A handler may catch an error to say it in its own words — by throwing another, or by showing its form
again with the problem — but never builds an error's response itself."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = ROOT / "Sources" / "OpenCareKitServer"
THE_ONE_PLACE = {SERVER / "HTTP" / "ErrorResponses.swift", SERVER / "HTTP" / "ErrorMiddleware.swift"}

# Anywhere outside the one place.
FORBIDDEN = {
    r"\b(error|refusal|problem|failure)\.response\b": "an error's response taken by hand",
    r"\bclientStatus\b": "a status looked up for an error by hand",
    r"Refusal\(response:": "a refusal carrying a response",
    r"\.jsonResponse\b": "an error written as JSON by hand",
}
# A catch clause of these must throw (again, or another error): they answer themselves.
MUST_THROW = r"catch\s+(let\s+\w+\s+as\s+|is\s+)(Storage(Unavailable|Fault)Error|HeavyWork\.Busy)"
# Inside a catch clause: building an error's answer instead of throwing.
IN_CATCH = [r"\berrorPage\(", r"AppPage\.error\(", r"fhirResponse\(", r"Response\(status:"]


def catch_bodies(text):
    """The text of each `catch … { … }` clause's body."""
    for match in re.finditer(r"\bcatch\b[^{]*\{", text):
        depth, index = 1, match.end()
        while depth and index < len(text):
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            index += 1
        yield text[match.start():index]


def problems():
    found = []
    for source in sorted(SERVER.rglob("*.swift")):
        if source in THE_ONE_PLACE:
            continue
        text = source.read_text(encoding="utf-8")
        name = source.relative_to(ROOT)
        for pattern, what in FORBIDDEN.items():
            for match in re.finditer(pattern, text):
                found.append(f"{name}:{text.count(chr(10), 0, match.start()) + 1}: {what}")
        for body in catch_bodies(text):
            if re.match(MUST_THROW, body) and "throw" not in body:
                line = text.count("\n", 0, text.index(body)) + 1
                found.append(f"{name}:{line}: an error that answers itself is answered by hand")
            for pattern in IN_CATCH:
                if re.search(pattern, body, re.M):
                    line = text.count("\n", 0, text.index(body)) + 1
                    found.append(f"{name}:{line}: a catch clause builds an error's answer ({pattern})")
    return found


def test_no_handler_maps_an_error_by_hand():
    found = problems()
    assert not found, "\n".join(found)


def test_the_check_finds_a_mapping_by_hand(tmp_path, monkeypatch):
    """The check itself: a handler that answers a caught error by hand is found."""
    handler = tmp_path / "Handler.swift"
    handler.write_text("func f() async throws -> Response {\n    do { return try await g() } catch let error as OCKStoreError {\n"
                       "        return errorPage(PageMessage(ErrorText.changeRefused), status: .conflict, context: render)\n    }\n}\n")
    monkeypatch.setattr(__import__(__name__), "SERVER", tmp_path)
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert any("catch clause" in line for line in problems())
