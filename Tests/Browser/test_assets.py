"""The scripts and stylesheets are real files (SwiftPM resources compiled into the binary): the app serves exactly
those files, Chromium's parser accepts every script, and keeps every rule of every stylesheet."""
import re
import tempfile
import urllib.request

from careapp import served
from conftest import ROOT

SCRIPTS = {
    "/assets/opencarekit.js": "Sources/OpenCareKitUI/Resources/opencarekit.js",
    "/assets/app.js": "Sources/OpenCareKitServer/Resources/app.js",
    "/assets/surveys.js": "Sources/OpenCareKitSurveys/Resources/surveys.js",
}
STYLESHEETS = [
    "Sources/OpenCareKitUI/Resources/opencarekit.css",
    "Sources/OpenCareKitSurveys/Resources/surveys.css",
    "Sources/OpenCareKitServer/Resources/host.css",
]

# Compiles a script without running it; the error's name and message, or "" when it parses.
PARSE = """source => { try { new Function(source); return ""; } catch (error) { return error.name + ": " + error.message; } }"""

# Parses a stylesheet; how many top-level rules Chromium kept.
RULES = """source => { const sheet = new CSSStyleSheet(); sheet.replaceSync(source); return sheet.cssRules.length; }"""


def top_level_blocks(css):
    """The top-level rules of a stylesheet, counted by their braces (comments left out)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    depth, blocks = 0, 0
    for character in css:
        if character == "{":
            depth += 1
        elif character == "}":
            depth -= 1
            blocks += depth == 0
    assert depth == 0
    return blocks


def test_the_app_serves_the_files(browser):
    with tempfile.TemporaryDirectory() as data, served(data) as url:
        for path, file in SCRIPTS.items():
            with urllib.request.urlopen(url + path) as response:
                assert response.read() == (ROOT / file).read_bytes(), path
        with urllib.request.urlopen(url + "/assets/opencarekit.css") as response:
            stylesheet = response.read().decode()
        for file in STYLESHEETS:
            assert (ROOT / file).read_text() in stylesheet, file


def test_chromium_parses_every_script_and_keeps_every_rule(browser):
    page = browser.new_page()
    try:
        page.goto("about:blank")
        # The checks can fail: a script with one brace too many is refused, a rule with a broken selector dropped.
        assert page.evaluate(PARSE, "function f() { return 1; }}").startswith("SyntaxError")
        broken = ".a { color: red; } .b:: { color: blue; } .c { color: green; }"
        assert page.evaluate(RULES, broken) == 2 != top_level_blocks(broken)
        for file in SCRIPTS.values():
            source = (ROOT / file).read_text()
            assert len(source) > 1_000
            assert page.evaluate(PARSE, source) == "", file
        for file in STYLESHEETS:
            source = (ROOT / file).read_text()
            assert page.evaluate(RULES, source) == top_level_blocks(source) > 10, file
    finally:
        page.close()
