"""The report for clinicians in the browser: downloaded as PDF (read back with pypdf, its first page drawn by
pdftoppm into .screenshots/ to be looked at) and as CSV (read back with Python's csv module and compared with the
store's values through the JSON API), and shared with the Web Share API or, without it, downloaded."""
import collections
import csv
import datetime
import io
import json
import math
import re
import subprocess
import tempfile
import unicodedata

import pytest
from pypdf import PdfReader

from careapp import CAREKIT_EPOCH, DEMO_CLINICIAN, served, sign_in, urlopen
from conftest import DESKTOP, PHONE, SCREENSHOTS, opened_page
from test_surveys import assert_accessible

PAPER_POINTS = {"a4": (595, 842), "letter": (612, 792)}


@pytest.fixture(scope="module")
def clinic():
    """The demo with its clinic, the clinician signed in; Maria Santos's record (four weeks of history) and its whole
    history as the report's range."""
    with tempfile.TemporaryDirectory() as directory, served(directory, args=["--demo-patients", "3"]) as origin:
        sign_in(origin, DEMO_CLINICIAN)
        home = urlopen(origin + "/").read().decode()
        base = origin + re.search(r'class="ock-patient-name" href="(/records/[0-9a-z]+)/care">Maria Santos<', home).group(1)
        today = datetime.date.today()
        yield {"origin": origin, "base": base, "from": (today - datetime.timedelta(days=120)).isoformat(), "to": today.isoformat()}


def report_url(clinic, paper="a4"):
    return f"{clinic['base']}/reports?from={clinic['from']}&to={clinic['to']}&paper={paper}"


def test_the_pdf_holds_the_reports_figures_on_the_chosen_paper(browser, clinic, tmp_path):
    for paper in ("a4", "letter"):
        with opened_page(browser, report_url(clinic, paper), viewport=DESKTOP) as (page, errors):
            overall = page.locator("#report-adherence ~ div tbody tr:last-child td").all_inner_texts()
            assert overall and all(re.fullmatch(r"\d+% \(\d+/\d+\)|–", cell) for cell in overall), overall
            with page.expect_download() as download:
                page.click("text=Download PDF")
            path = tmp_path / f"report-{paper}.pdf"
            download.value.save_as(path)
            assert download.value.suggested_filename == f"care-report-{clinic['from']}-{clinic['to']}.pdf"
            assert errors == []
        reader = PdfReader(path)
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == PAPER_POINTS[paper]
        text = " ".join(page.extract_text() for page in reader.pages)
        # NFKC: the PDF's text keeps the font's ligatures ("ﬁ").
        flat = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))
        for figure in overall:
            assert figure in flat, figure
        for heading in ("Care report", "Adherence", "Check-in answers", "Values with units", "Consent on file", "Prepared by"):
            assert heading in flat, heading
        if paper == "a4":
            # Its first page, drawn for a person to look at (kept out of git with every screenshot).
            SCREENSHOTS.mkdir(exist_ok=True)
            subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", str(path),
                            str(SCREENSHOTS / "report-pdf-page-1")], check=True)
            assert (SCREENSHOTS / "report-pdf-page-1.png").stat().st_size > 10_000


def test_the_csv_round_trips_with_the_stores_values(browser, clinic, tmp_path):
    with opened_page(browser, report_url(clinic), viewport=PHONE) as (page, errors):
        with page.expect_download() as download:
            page.click("text=Download CSV")
        path = tmp_path / "report.csv"
        download.value.save_as(path)
        assert errors == []
    raw = path.read_bytes()
    # UTF-8 with a byte-order mark, CRLF after every record (RFC 4180).
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert raw.count(b"\r\n") == len(rows) + 1 and raw.endswith(b"\r\n")
    assert rows and set(rows[0]) == {"Recorded", "UTC offset", "Task ID", "Task", "Event start", "Occurrence", "Kind", "Value",
                                     "Units", "Type", "Note"}

    # The store's values through the JSON API: every outcome of the range (all of this patient's history) but the
    # onboarding's, whose values are the consent section's.
    tasks = {}
    offset = 0
    while True:
        page = json.load(urlopen(f"{clinic['base']}/api/v1/tasks?limit=500&offset={offset}", headers={"Accept": "application/json"}))
        tasks.update({task["uuid"]: task["id"] for task in page})
        if len(page) < 500:
            break
        offset += 500
    expected = []
    offset = 0
    while True:
        page = json.load(urlopen(f"{clinic['base']}/api/v1/outcomes?limit=500&offset={offset}", headers={"Accept": "application/json"}))
        for outcome in page:
            task = tasks[outcome["taskUUID"]]
            if task == "onboarding" or outcome.get("deletedDate"):
                continue
            for value in outcome["values"]:
                # JSON writes a whole double without its point.
                stored = float(value["value"]) if value["type"] == "double" else value["value"]
                expected.append((task, outcome["taskOccurrenceIndex"], value.get("kind") or "", value["type"], stored,
                                 value.get("units") or "", math.floor(value["createdDate"] + CAREKIT_EPOCH)))
        if len(page) < 500:
            break
        offset += 500

    def typed(row):
        text = row["Value"]
        value = {"integer": int, "double": float, "boolean": lambda t: t == "true"}.get(row["Type"], lambda t: t)(text)
        assert re.fullmatch(r"UTC[+-]\d\d:\d\d", row["UTC offset"]), row["UTC offset"]
        recorded = datetime.datetime.strptime(row["Recorded"] + row["UTC offset"][3:].replace(":", ""), "%Y-%m-%d %H:%M:%S%z")
        return (row["Task ID"], int(row["Occurrence"]), row["Kind"], row["Type"], value, row["Units"], int(recorded.timestamp()))

    got = [typed(row) for row in rows]
    assert len(got) > 100 and collections.Counter(got) == collections.Counter(expected)
    # Dates a spreadsheet reads (to the second), units in their own column.
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", row["Recorded"]) for row in rows)
    assert {"kg", "glasses"} <= {row["Units"] for row in rows}


def test_share_uses_the_web_share_api_where_there_is_one_else_downloads(browser, clinic):
    shared = """
    window.__shared = null;
    navigator.canShare = (data) => !!(data && data.files && data.files.length === 1);
    navigator.share = async (data) => {
      const file = data.files[0];
      window.__shared = { name: file.name, type: file.type, size: file.size, title: data.title,
                          head: new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5)) };
      document.body.setAttribute("data-shared", "");
    };
    """
    with opened_page(browser, report_url(clinic), viewport=PHONE) as (page, errors):
        page.add_init_script(shared)
        page.reload()
        assert_accessible(page, "report phone")
        page.click("button:has-text('Share')")
        page.wait_for_selector("body[data-shared]", state="attached")
        result = page.evaluate("window.__shared")
        assert result["name"].endswith(".pdf") and result["type"] == "application/pdf" and result["head"] == "%PDF-"
        assert result["size"] > 10_000 and result["title"].startswith("Care report – ")
        assert errors == []
    # A browser without the Web Share API downloads the same file.
    with opened_page(browser, report_url(clinic), viewport=DESKTOP) as (page, errors):
        page.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
        page.reload()
        assert_accessible(page, "report desktop")
        with page.expect_download() as download:
            page.click("button:has-text('Share')")
        assert download.value.suggested_filename.endswith(".pdf")
        assert errors == []
    # In Korean.
    with opened_page(browser, report_url(clinic), viewport=PHONE, locale="ko-KR", extra_http_headers={"Accept-Language": "ko"}) as (page, errors):
        assert page.locator("h1").first.inner_text().startswith("케어 보고서")
        assert page.locator("text=PDF 다운로드").count() == 1
        assert errors == []


def test_a_dense_chart_on_a_phone_steps_through_its_columns_with_44_px_buttons(browser, clinic):
    """The report's charts over four months leave each column a few pixels on a phone, under WCAG 2.5.8's 24 px: the
    buttons beside the readout are the equivalent control, 44 px each (issue 39, part 7)."""
    with opened_page(browser, report_url(clinic), viewport=PHONE, has_touch=True, is_mobile=True) as (page, errors):
        charts = page.locator(".ock-report-charts .ock-chart")
        assert charts.count() >= 1
        chart = charts.first
        widths = chart.locator(".ock-chart-column").evaluate_all("columns => columns.map(c => c.getBoundingClientRect().width)")
        assert len(widths) >= 2 and max(widths) < 24, widths
        labels = chart.locator(".ock-chart-column").evaluate_all("columns => columns.map(c => c.getAttribute('aria-label'))")
        previous, following = chart.locator('[data-ock-step="-1"]'), chart.locator('[data-ock-step="1"]')
        for button in (previous, following):
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
        # With nothing selected, a step starts at the newest column; then one back.
        following.click()
        assert chart.locator(".ock-chart-readout").text_content() == labels[-1]
        previous.click()
        assert chart.locator(".ock-chart-readout").text_content() == labels[-2]
        assert errors == []
