"""The documentation: the MkDocs site builds strict (the command `make docs` runs), a broken
link fails it, the README stays a short front page whose links all land, and the tour it
shows is the tour of the site."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.doc_commands import REPO, section

LINK = re.compile(r"\]\(([^)\s]+)\)")
BENCHMARKS = ("TruthfulQA-Multi", "VeritasQA", "XLingHealth", "MSQAD", "CaLMQA", "m_truthfulqa")


def build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    built = build(REPO, folder)
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    return folder


def anchors(page: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8")))


def test_every_page_is_built(site):
    pages = sorted(path.stem for path in (REPO / "docs").glob("*.md"))
    assert len(pages) >= 20
    for page in pages:
        built = site / "index.html" if page == "index" else site / page / "index.html"
        assert built.is_file(), f"docs/{page}.md was not built"


def test_a_broken_link_fails_the_strict_build(tmp_path):
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    shutil.copy(REPO / "mkdocs.yml", tmp_path / "mkdocs.yml")
    page = tmp_path / "docs" / "tour.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[gone](protocols.md#no-such-anchor)\n", encoding="utf-8")
    built = build(tmp_path, tmp_path / "site")
    assert built.returncode != 0
    assert "no-such-anchor" in built.stderr


def test_a_page_left_out_of_the_navigation_fails_the_strict_build(tmp_path):
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    shutil.copy(REPO / "mkdocs.yml", tmp_path / "mkdocs.yml")
    (tmp_path / "docs" / "orphan.md").write_text("# Orphan\n", encoding="utf-8")
    built = build(tmp_path, tmp_path / "site")
    assert built.returncode != 0
    assert "orphan.md" in built.stderr


def test_the_readme_is_a_short_front_page():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 250
    first_screen = readme[: readme.index("\n## ")]
    assert len(first_screen.splitlines()) <= 15
    first_screen = " ".join(first_screen.split())
    for name in (*BENCHMARKS, "lm-eval", "judge", "wrong", "repetition", "explorer", "question by question"):
        assert name in first_screen, f"the README's first screen does not name {name}"
    set_up = section(REPO / "README.md", "## Set up")
    assert "make demo" in set_up and "make test" in set_up


def test_every_link_of_the_readme_lands(site):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = [link for link in LINK.findall(readme) if not link.startswith(("http://", "https://"))]
    assert len(links) >= 20
    for link in links:
        target, _, anchor = link.partition("#")
        assert (REPO / target).is_file(), f"README.md links to {target}, which is not there"
        if anchor:
            assert target.startswith("docs/") and target.endswith(".md"), link
            built = site / Path(target).relative_to("docs").with_suffix("") / "index.html"
            assert anchor in anchors(built), f"README.md links to {link}: no such anchor"


def test_the_tour_of_the_site_is_the_readme_tour():
    readme = section(REPO / "README.md", "## A five-minute tour").replace("](docs/", "](")
    site_tour = (REPO / "docs" / "tour.md").read_text(encoding="utf-8")
    body = readme.split("\n", 2)[2]  # after the heading
    assert body.strip() in site_tour, "docs/tour.md and the README's tour differ: copy one to the other"
