"""The project's metadata files tell the truth: the licence expression is valid SPDX and names
every licence of what ships, every licence file exists and is listed, CITATION.cff validates
against the Citation File Format 1.2.0 schema, and the changelog has an Unreleased section."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _project() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project: dict[str, object] = data["project"]
    return project


def test_licence_expression_is_valid_and_complete() -> None:
    licenses = pytest.importorskip("packaging.licenses")
    expression = str(_project()["license"])
    assert licenses.canonicalize_license_expression(expression) == expression
    for needed in ("Apache-2.0", "LGPL-2.1-or-later", "BSD-3-Clause", "LicenseRef-WordNet-3.0"):
        assert needed in expression
    files = _project()["license-files"]
    assert isinstance(files, list)
    for name in files:
        assert (ROOT / name).is_file(), name
    for name in (
        "LICENSE",
        "src/meteor_eval/resources/data/LGPL-2.1.txt",
        "src/meteor_eval/resources/data/wordnet/LICENSE",
        "src/meteor_eval/resources/_snowball/LICENSE",
    ):
        assert name in files
    lgpl = ROOT / "src/meteor_eval/resources/data/LGPL-2.1.txt"
    assert "LESSER GENERAL PUBLIC LICENSE" in lgpl.read_text(encoding="utf-8")


def test_third_party_lists_every_licence_of_the_expression() -> None:
    text = (ROOT / "THIRD_PARTY.md").read_text(encoding="utf-8")
    for part in str(_project()["license"]).split(" AND "):
        assert part in text
    for folder in ("function/", "nonbreaking/", "wordnet/", "_snowball/"):
        assert folder in text


def test_citation_file_validates() -> None:
    yaml = pytest.importorskip("yaml")
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0.schema.json").read_text("utf-8"))
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    # YAML reads the date as a date; the schema wants its text.
    citation["date-released"] = str(citation["date-released"])
    jsonschema.Draft7Validator(schema).validate(citation)
    from meteor_eval import __version__

    assert citation["version"] == __version__


def test_changelog_has_unreleased_and_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    from meteor_eval import __version__

    assert "## [Unreleased]" in text
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M)
