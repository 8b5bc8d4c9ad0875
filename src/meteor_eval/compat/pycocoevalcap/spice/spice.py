"""``pycocoevalcap.spice.spice.Spice``: the original SPICE jar, run only when it can run.

SPICE parses captions into scene graphs with Stanford CoreNLP; there is no Java-free version of
it here. This class runs ``spice-1.0.jar`` exactly as pycocoevalcap does (``java -jar -Xmx8G
spice-1.0.jar IN -cache DIR -out OUT -subset -silent``) when three things are present: a
``java`` executable, the jar (with its ``lib/`` folder) and the Stanford CoreNLP 3.6.0 jars in
that ``lib/`` folder. pycocoevalcap downloads the CoreNLP jars on first use; this class never
downloads anything: when something is missing, creating it raises one
:class:`SpiceUnavailableError` naming everything that is missing and how to provide it (never a
silent zero).

The jar is looked for in ``spice_dir`` (an argument), then ``$METEOR_EVAL_SPICE_DIR``, then the
``spice/`` folder of an installed pycocoevalcap.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from meteor_eval.errors import ResourceError
from meteor_eval.metrics.caption import check_captions

__all__ = ["SPICE_JAR", "Spice", "SpiceUnavailableError", "spice_problems"]

SPICE_JAR = "spice-1.0.jar"
CORENLP_JARS = ("stanford-corenlp-3.6.0.jar", "stanford-corenlp-3.6.0-models.jar")


class SpiceUnavailableError(ResourceError):
    """SPICE cannot run here: Java, the SPICE jar or the Stanford CoreNLP models are missing."""


def _installed_spice_dir() -> Path | None:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "spice"
        if (candidate / SPICE_JAR).is_file():
            return candidate
    return None


def find_spice_dir(spice_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """The folder holding ``spice-1.0.jar``: the argument, ``$METEOR_EVAL_SPICE_DIR`` or an
    installed pycocoevalcap's ``spice/`` folder (``None`` if none is given or found)."""
    if spice_dir is not None:
        return Path(spice_dir)
    env = os.environ.get("METEOR_EVAL_SPICE_DIR")
    if env:
        return Path(env)
    return _installed_spice_dir()


def spice_problems(
    spice_dir: str | os.PathLike[str] | None = None, *, java: str | None = None
) -> list[str]:
    """What keeps SPICE from running (empty when it can run)."""
    problems: list[str] = []
    if (java or shutil.which("java")) is None:
        problems.append("no 'java' executable on PATH (SPICE needs Java 8 or later)")
    folder = find_spice_dir(spice_dir)
    if folder is None:
        problems.append(
            f"no {SPICE_JAR} (install pycocoevalcap, or set METEOR_EVAL_SPICE_DIR to the "
            "folder holding it)"
        )
        return problems
    if not (folder / SPICE_JAR).is_file():
        problems.append(f"no {SPICE_JAR} in {folder}")
        return problems
    missing = [name for name in CORENLP_JARS if not (folder / "lib" / name).is_file()]
    if missing:
        problems.append(
            f"the Stanford CoreNLP 3.6.0 models are not in {folder / 'lib'} ({', '.join(missing)}; "
            "pycocoevalcap downloads them on first use, meteor-eval never downloads: run "
            "pycocoevalcap's spice/get_stanford_models.py once, or copy the two jars there)"
        )
    return problems


class Spice:
    """``Spice().compute_score(gts, res) -> (mean SPICE F-score, per-image score dicts)``.

    Args:
        spice_dir: Folder of ``spice-1.0.jar`` (default: see the module docstring).
        java: The ``java`` executable (default: the one on ``PATH``).

    Raises:
        SpiceUnavailableError: Java, the jar or the CoreNLP models are missing (all of them named).
    """

    def __init__(
        self, spice_dir: str | os.PathLike[str] | None = None, *, java: str | None = None
    ) -> None:
        problems = spice_problems(spice_dir, java=java)
        if problems:
            raise SpiceUnavailableError("SPICE cannot run: " + "; ".join(problems))
        folder = find_spice_dir(spice_dir)
        assert folder is not None  # spice_problems found it
        self._dir = folder
        self._java = java or shutil.which("java") or "java"

    @staticmethod
    def float_convert(obj: Any) -> float:
        """``float(obj)``, or NaN when that fails (the jar writes ``null`` for empty sets)."""
        try:
            return float(obj)
        except (TypeError, ValueError):
            return math.nan

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[Any, list[dict[str, dict[str, float]]]]:
        """Run the jar on the images (sorted ids, as the original) and read its scores.

        Raises:
            ValueError: as :func:`meteor_eval.metrics.caption.check_captions`.
            subprocess.CalledProcessError: the jar failed.
        """
        image_ids = sorted(check_captions(gts, res, metric="Spice"))
        input_data = [
            {"image_id": image_id, "test": res[image_id][0], "refs": gts[image_id]}
            for image_id in image_ids
        ]
        cache_dir = Path(tempfile.gettempdir()) / "meteor-eval-spice-cache"
        cache_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="meteor-eval-spice-") as work:
            in_file = Path(work) / "input.json"
            out_file = Path(work) / "output.json"
            in_file.write_text(json.dumps(input_data, indent=2), encoding="utf-8")
            command = [
                self._java, "-jar", "-Xmx8G", SPICE_JAR, str(in_file),
                "-cache", str(cache_dir), "-out", str(out_file), "-subset", "-silent",
            ]  # fmt: skip
            subprocess.check_call(command, cwd=self._dir)
            results = json.loads(out_file.read_text(encoding="utf-8"))
        scores_of: dict[Any, Any] = {}
        spice_scores = []
        for item in results:
            scores_of[item["image_id"]] = item["scores"]
            spice_scores.append(self.float_convert(item["scores"]["All"]["f"]))
        average = np.mean(np.array(spice_scores))
        scores = []
        for image_id in image_ids:
            scores.append(
                {
                    category: {k: self.float_convert(v) for k, v in values.items()}
                    for category, values in scores_of[image_id].items()
                }
            )
        return average, scores

    def method(self) -> str:
        """``"SPICE"``, as the original."""
        return "SPICE"
