"""The explorer in a real browser: Debian's headless Chromium driven by Playwright. The
counts the page shows are checked against the same counts computed here from the data."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from mlbench.report.explore_data import explorer_data
from mlbench.report.explore_page import explorer_page
from tests.cli.test_cli import run_cli
from tests.report.explore_runs import PAYLOAD_IMG, PAYLOAD_SCRIPT, make_explore_runs

CHROMIUM = Path("/usr/bin/chromium")
# Chromium's own calls home are refused on a closed network; none of them is needed.
QUIET = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]  # fmt: skip


@pytest.fixture(scope="module")
def runs(tiny_model, make_tiny_model, tmp_path_factory):
    root = tmp_path_factory.mktemp("explore-browser")
    other = make_tiny_model(root / "models" / "other", size="tiny", seed=1)
    return make_explore_runs(root / "out", tiny_model, other)


@pytest.fixture(scope="module")
def page_file(runs):
    data = explorer_data([runs])
    path = runs.parent / "explorer.html"
    path.write_text(explorer_page(data), encoding="utf-8")
    return path, data.to_json()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists() or shutil.which("chromium") is None:
        pytest.fail("no Chromium at /usr/bin/chromium: `make install` installs Debian's chromium (root), or apt it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=QUIET)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, page_file):
    path, _ = page_file
    tab = browser.new_page(viewport={"width": 1300, "height": 900})
    tab.problems = []  # console errors, page errors and dialogs: none is expected
    tab.on("console", lambda message: tab.problems.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: tab.problems.append(str(error)))
    tab.on("dialog", lambda dialog: (tab.problems.append("dialog: " + dialog.message), dialog.dismiss()))
    tab.url_of = lambda fragment="": path.as_uri() + fragment
    yield tab
    tab.close()


def _open(page, fragment=""):
    page.goto(page.url_of(fragment))
    page.wait_for_selector("body[data-ready]")


def _count(page):
    shown, total = re.match(r"(\d+) of (\d+) questions", page.text_content("#count")).groups()
    return int(shown), int(total)


def _expected_right_wrong(data, task, model, metric, right, wrong):
    count = 0
    for question in data["tasks"][task]["questions"]:
        by_lang = {c["l"]: c for c in question["cells"] if c["mo"] == model}
        a, b = by_lang.get(right), by_lang.get(wrong)
        if a and b and metric in a["m"] and metric in b["m"] and a["m"][metric] == 1 and b["m"][metric] != 1:
            count += 1
    return count


def test_right_in_en_wrong_in_es_shows_the_count_computed_from_the_samples(page, page_file):
    _, data = page_file
    _open(page)
    assert _count(page) == (8, 8)
    page.select_option("select[name=metric]", "mc1")
    page.select_option("select[name=right]", "en")
    page.select_option("select[name=wrong]", "es")
    expected = _expected_right_wrong(data, "truthfulqa_multi", 0, "mc1", "en", "es")
    assert _count(page) == (expected, 8)
    assert page.locator("section.question").count() == expected
    # The filter lives in the URL: the same view opens from it.
    fragment = page.evaluate("location.hash")
    assert "right=en" in fragment and "wrong=es" in fragment
    for model in (0, 1):
        _open(page, re.sub(r"model=\d", f"model={model}", fragment))
        expected = _expected_right_wrong(data, "truthfulqa_multi", model, "mc1", "en", "es")
        assert _count(page)[0] == expected
    assert page.problems == []


def test_a_fragment_opens_one_question(page, page_file):
    _, data = page_file
    question = data["tasks"]["truthfulqa_multi"]["questions"][3]
    _open(page, f"#task=truthfulqa_multi&model=1&id={question['id']}")
    assert _count(page) == (1, 8)
    card = page.locator("section.question")
    assert card.count() == 1 and card.locator("h2 a").text_content() == "#" + question["id"]
    answer = next(c["a"] for c in question["cells"] if c["mo"] == 1 and c["l"] == "es")
    assert answer.strip()[:20] in card.text_content()
    assert page.problems == []


def test_switching_models_and_side_by_side(page, page_file):
    _, data = page_file
    _open(page, "#task=truthfulqa_multi")
    first = data["tasks"]["truthfulqa_multi"]["questions"][0]
    answers = {c["mo"]: c["a"] for c in first["cells"] if c["l"] == "en"}
    assert answers[0] != answers[1]
    card = page.locator("section.question").first
    assert answers[0].strip()[:20] in card.text_content()
    page.select_option("select[name=model]", "1")
    assert answers[1].strip()[:20] in page.locator("section.question").first.text_content()
    page.select_option("select[name=vs]", "0")
    titles = page.locator("section.question").first.locator(".cell h3").all_text_contents()
    assert [t.lower() for t in titles] == [f"{data['models'][1]} · en".lower(), f"{data['models'][0]} · en".lower()]
    page.select_option("select[name=lang]", "es")
    assert "· es" in page.locator("section.question").first.locator(".cell h3").first.text_content().lower()
    assert page.problems == []


def test_markup_in_questions_and_answers_runs_nothing(page):
    _open(page, "#task=veritasqa")
    assert _count(page) == (3, 3)
    text = page.locator("main").text_content()
    assert PAYLOAD_SCRIPT in text and PAYLOAD_IMG in text  # shown as text
    assert page.locator("main img").count() == 0 and page.locator("main script").count() == 0
    page.fill("input[name=q]", "onerror")
    assert _count(page) == (3, 3)
    page.fill("input[name=q]", "no such words")
    assert _count(page) == (0, 3)
    assert page.problems == []


def test_the_page_loads_nothing_from_outside(page):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    _open(page)
    assert all(url.startswith("file://") for url in requests), requests
    policy = page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content")
    assert json.dumps(policy).count("default-src 'none'") == 1


def test_another_benchmark_picks_a_model_that_ran_it(page, page_file):
    _, data = page_file
    _open(page, "#task=truthfulqa_multi&model=0")
    page.select_option("select[name=task]", "veritasqa")
    tiny = str(data["models"].index("tiny"))
    assert f"model={tiny}" in page.evaluate("location.hash") and _count(page) == (3, 3)
    assert page.problems == []


def test_a_link_may_name_the_model_by_its_label(page, page_file):
    _, data = page_file
    _open(page, "#task=truthfulqa_multi&model=tiny&metric=mc1&right=en&wrong=es")
    tiny = data["models"].index("tiny")
    assert f"model={tiny}" in page.evaluate("location.hash")
    assert _count(page)[0] == _expected_right_wrong(data, "truthfulqa_multi", tiny, "mc1", "en", "es")


def test_slicing_and_grouping_by_a_label_of_the_data(page, page_file):
    _, data = page_file
    questions = data["tasks"]["truthfulqa_multi"]["questions"]
    categories = [next(c["s"]["category"] for c in q["cells"] if c.get("s")) for q in questions]
    category = max(set(categories), key=categories.count)
    _open(page, "#task=truthfulqa_multi")
    page.select_option("select[name=slice]", f"category={category}")
    assert _count(page)[0] == categories.count(category)
    page.select_option("select[name=slice]", "")
    page.select_option("select[name=by]", "category")
    headers = page.locator("main h2.group").all_text_contents()
    assert headers == [f"category: {c} ({categories.count(c)} questions)" for c in sorted(set(categories))]
    assert page.problems == []


def test_a_gap_in_the_html_report_opens_the_questions_behind_it(page, page_file, runs):
    _, data = page_file
    folder = runs.parent / "report"
    done = run_cli("report", runs, "--task", "truthfulqa_multi", "--metric", "mc1", "--format", "html,explore",
                   "--out", folder)  # fmt: skip
    assert done.exit_code == 0, done.output
    page.goto((folder / "report.html").as_uri())
    links = page.locator("table.gaps a")
    assert links.count() == 2  # es's gap for each of the two models
    href = links.first.get_attribute("href")
    params = dict(pair.split("=") for pair in href.split("#", 1)[1].split("&"))
    links.first.click()
    page.wait_for_selector("body[data-ready]")
    model = data["models"].index(params["model"])
    expected = _expected_right_wrong(data, "truthfulqa_multi", model, "mc1", params["right"], params["wrong"])
    assert _count(page)[0] == expected
    assert page.problems == []


def test_what_was_skipped_is_a_visible_notice(browser, runs, tmp_path):
    data = explorer_data([runs])
    data.skipped.append("tiny · truthfulqa_multi · es: line 2 is not JSON")
    path = tmp_path / "explorer.html"
    path.write_text(explorer_page(data), encoding="utf-8")
    tab = browser.new_page()
    tab.goto(path.as_uri())
    tab.wait_for_selector("body[data-ready]")
    assert tab.locator("#notice").is_visible()
    assert "line 2 is not JSON" in tab.locator("#notice").text_content()
    tab.close()


def test_a_mode_shows_its_own_metrics(page):
    _open(page, "#task=truthfulqa_multi")
    page.select_option("select[name=mode]", "mc")
    metrics = page.locator("select[name=metric] option").all_text_contents()
    assert set(metrics) == {"mc1", "mc2"}
    card = page.locator("section.question").first
    assert card.locator("ol.options").count() == 2 and card.locator(".cell .a").count() == 0
    page.select_option("select[name=mode]", "gen")
    metrics = page.locator("select[name=metric] option").all_text_contents()
    assert {"bleu_max", "bleu_acc", "repetition"} <= set(metrics) and "mc1" not in metrics
    card = page.locator("section.question").first
    assert card.locator("ol.options").count() == 0 and card.locator(".cell .a").count() == 2
    assert page.problems == []


def test_typing_a_search_keeps_the_box_and_what_was_typed(page):
    _open(page, "#task=truthfulqa_multi")
    page.locator("input[name=q]").press_sequentially("wha", delay=30)
    assert page.input_value("input[name=q]") == "wha"
    assert page.evaluate("document.activeElement.name") == "q"
    assert "q=wha" in page.evaluate("location.hash")


def test_right_and_wrong_only_where_they_mean_something(page):
    _open(page, "#task=truthfulqa_multi&metric=bleu_max&right=en&wrong=es")
    # BLEU max is a 0–100 score: no right/wrong filter (dropped from the link too).
    assert page.locator("select[name=right]").count() == 0
    assert "right=" not in page.evaluate("location.hash") and _count(page) == (8, 8)
    page.select_option("select[name=metric]", "bleu_acc")
    assert page.locator("select[name=right]").count() == 1


def test_32_languages_a_card_shows_the_languages_chosen(browser, tmp_path):
    from mlbench.report import make_report, write_report

    from .many_languages import LANGS32, write_32_languages

    root = write_32_languages(tmp_path / "results", samples=True)
    out = tmp_path / "report"
    write_report(make_report(root), out, formats=["explore", "html"], plots=False, seed=0, resamples=200)
    tab = browser.new_page(viewport={"width": 1300, "height": 900})
    errors = []
    tab.on("pageerror", lambda error: errors.append(str(error)))

    def cells(fragment=None):
        if fragment is not None:
            tab.goto((out / "explorer.html").as_uri() + fragment)
            tab.wait_for_selector("body[data-ready]")
        return tab.locator("section.question").first.locator(".cell h3").all_text_contents()

    assert len(cells("")) == 32  # every language by default
    assert cells("#langs=de,en") == ["en", "de"]  # in the benchmark's order
    # Ticking one more in the languages box; the choice lives in the link.
    tab.click("details.langs summary")
    tab.check("input[name=langs][value=zh]")
    assert cells() == ["en", "de", "zh"] and "langs=en%2Cde%2Czh" in tab.evaluate("location.hash")
    assert "3 of 32" in tab.text_content("details.langs summary")
    tab.click("button[name=langs-all]")
    assert len(cells()) == 32 and "langs" not in tab.evaluate("location.hash")
    # The right-in language is shown whatever is ticked: what is filtered on is seen.
    assert cells("#metric=mc1&langs=de&right=en") == ["en", "de"]
    # A gap of the report opens the questions behind it, its two languages only.
    tab.goto((out / "report.html").as_uri())
    link = tab.locator("table.gaps a").first
    params = dict(pair.split("=") for pair in link.get_attribute("href").split("#", 1)[1].split("&"))
    assert params["langs"] == f"{params['right']}%2C{params['wrong']}"
    link.click()
    tab.wait_for_selector("body[data-ready]")
    shown = set(tab.locator("section.question .cell h3").all_text_contents())
    assert shown == {"en", LANGS32[1]} and errors == []
    tab.close()


def test_translation_flips_keep_the_rows_where_the_translation_decides(browser, tmp_path):
    from mlbench.report.alignment import ALIGNED_TASK

    from .test_explore_translations import CA, ES, FLIPS, write_flip_runs

    path = tmp_path / "explorer.html"
    path.write_text(explorer_page(explorer_data([write_flip_runs(tmp_path / "out")])), encoding="utf-8")
    tab = browser.new_page(viewport={"width": 1300, "height": 900})
    errors = []
    tab.on("pageerror", lambda error: errors.append(str(error)))

    def go(fragment):
        tab.goto(path.as_uri() + fragment)
        tab.wait_for_selector("body[data-ready]")

    def rows():
        return sorted(int(a.removeprefix("#")) for a in tab.locator("section.question h2 a").all_text_contents())

    def columns():
        return tab.locator("section.question").first.locator(".cell h3").all_text_contents()

    go("#task=truthfulqa_multi&metric=mc1")
    assert tab.locator("select[name=flips]").count() == 0  # one translation of each language: nothing to flip
    tab.select_option("select[name=task]", ALIGNED_TASK)
    tab.select_option("select[name=metric]", "mc1")
    assert _count(tab) == (12, 12) and len(columns()) == 7
    tab.select_option("select[name=flips]", "es")
    # alpha's es rows whose outcome differs between its three Spanish translations, those
    # translations the only columns shown, side by side.
    assert _count(tab) == (len(FLIPS["alpha", "mc1", "es"]), 12) and rows() == sorted(FLIPS["alpha", "mc1", "es"])
    assert columns() == ES and "flips=es" in tab.evaluate("location.hash")
    assert tab.locator("section.question h2 .flips").first.text_content() == "flips in es"
    tab.select_option("select[name=flips]", "all")
    expected = FLIPS["alpha", "mc1", "es"] | FLIPS["alpha", "mc1", "ca"]
    assert rows() == sorted(expected) and columns() == ES + CA and "flips=all" in tab.evaluate("location.hash")
    # The same view from the link, for the other model; another metric's right (≥ 0.5).
    fragment = tab.evaluate("location.hash")
    go(fragment.replace("model=0", "model=beta"))
    assert rows() == sorted(FLIPS["beta", "mc1", "es"])
    go(fragment.replace("metric=mc1", "metric=mc2").replace("flips=all", "flips=es"))
    assert rows() == sorted(FLIPS["alpha", "mc2", "es"]) and _count(tab)[1] == 12
    tab.select_option("select[name=flips]", "")
    assert _count(tab) == (12, 12) and len(columns()) == 7 and "flips" not in tab.evaluate("location.hash")
    assert errors == []
    tab.close()


def test_a_verdict_shows_what_the_judge_read(browser, runs, tiny_model, tmp_path):
    judged = shutil.copytree(
        runs / tiny_model.name / "truthfulqa_multi", tmp_path / "judged" / "m" / "truthfulqa_multi"
    )
    result = run_cli("judge", judged, "--judge", tiny_model, "-J", "kind=truth", "--lang", "en", "--no-cache")
    assert result.exit_code == 0, result.output
    line = json.loads((judged / "samples_en.jsonl").read_text().splitlines()[0])
    sent = line["judges"]["truth"]["sent"]
    assert sent.startswith("<|system|>")  # the tiny model's chat template, as the judge got it
    path = tmp_path / "explorer.html"
    path.write_text(explorer_page(explorer_data([tmp_path / "judged"])), encoding="utf-8")
    tab = browser.new_page(viewport={"width": 1300, "height": 900})
    tab.goto(path.as_uri() + f"#task=truthfulqa_multi&id={line['id']}")
    tab.wait_for_selector("body[data-ready]")
    summary = tab.locator(".judge summary", has_text="what the judge read").first
    summary.click()
    assert tab.locator(".judge pre.sent").first.text_content() == sent
    tab.screenshot(path=str(tmp_path / "judge-read.png"), full_page=True)
    tab.close()
