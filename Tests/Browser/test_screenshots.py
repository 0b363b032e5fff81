"""scripts/screenshots, which makes the README's two pictures from the demo: run into a temporary directory, it writes
a phone picture of the patient's care feed and a desktop picture of the clinician's home, each a PNG of its window's
exact size in pixels, and neither blank. (The script itself checks that each page shows what its picture is of: the
demo plan's cards, the list of patients.)"""
import os
import struct
import subprocess

import pytest
from PIL import Image

from careapp import BINARY
from conftest import ROOT

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# The phone's 390×844 window at device scale 2; the desktop's 1280×800 at scale 1 (the windows, not the whole pages).
SIZES = {"patient.png": (780, 1688), "clinician.png": (1280, 800)}


def png_size(path):
    """The width and height a PNG's header (its IHDR chunk, first after the signature) says."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE, f"{path.name} is not a PNG"
    assert head[12:16] == b"IHDR", f"{path.name} does not start with its header chunk"
    return struct.unpack(">II", head[16:24])


@pytest.mark.clock_free  # the script pins the server's clock itself
def test_the_script_makes_both_pictures(tmp_path):
    output = tmp_path / "images"
    result = subprocess.run([str(ROOT / "scripts" / "screenshots"), "--output", str(output)], capture_output=True,
                            text=True, timeout=300, env=dict(os.environ, OPENCAREKIT_BIN=BINARY))
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in output.iterdir()) == sorted(SIZES)  # nothing else, no partial files
    for name, size in SIZES.items():
        path = output / name
        assert png_size(path) == size, name
        with Image.open(path) as image:
            image.load()  # decodes every row: a truncated or corrupt file fails here
            assert image.size == size
            # A page, not a blank or single-colour window: text, controls and their anti-aliasing.
            colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
            assert len(colours) > 50, f"{name} has only {len(colours)} colours"
            # No one colour fills nearly all of it (the background takes half the phone picture, 90 % of the desktop one).
            assert max(count for count, _ in colours) < 0.97 * size[0] * size[1], name


@pytest.mark.clock_free
def test_a_missing_binary_fails_with_a_message(tmp_path):
    result = subprocess.run([str(ROOT / "scripts" / "screenshots"), "--output", str(tmp_path)], capture_output=True,
                            text=True, timeout=120, env=dict(os.environ, OPENCAREKIT_BIN=str(tmp_path / "missing")))
    assert result.returncode != 0
    assert "is not an executable" in result.stderr
    assert list(tmp_path.iterdir()) == []
