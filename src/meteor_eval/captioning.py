"""Caption data: COCO annotation and result files read strictly, tokenized as pycocoevalcap does.

* :func:`read_coco_annotations`: a COCO captions file (``{"annotations": [{"image_id",
  "caption"}, ...], "images": [...]}``) as image id -> reference captions, images in the order
  of ``images`` (pycocotools' ``getImgIds()``), then of first appearance.
* :func:`read_coco_results`: a COCO results file (``[{"image_id", "caption"}, ...]``) as image
  id -> caption; an image given twice, an image the annotations do not have, or a record without
  ``caption`` is an error naming the file and the record (pycocotools would fail later, or
  score two captions of one image).
* :func:`caption_corpus`: the images every system captions, in annotation order, with
  references and hypotheses tokenized by :func:`~meteor_eval.text.ptb.caption_tokens` in the
  order ``COCOEvalCap`` tokenizes them (references of all images in one pass, each system's
  results in one pass), so the scores are pycocoevalcap's for
  ``coco_eval.params["image_id"] = coco_result.getImgIds()``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meteor_eval.errors import InputError
from meteor_eval.io import read_text
from meteor_eval.text.ptb import caption_tokens

__all__ = ["CaptionCorpus", "caption_corpus", "read_coco_annotations", "read_coco_results"]


def _load_json(path: str | Path) -> Any:
    file = Path(path)
    text = read_text(file)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{file}: not JSON ({exc.msg} at line {exc.lineno})") from None


def _caption(record: Any, where: str) -> tuple[Any, str]:
    if not isinstance(record, Mapping):
        raise InputError(f"{where}: expected an object with image_id and caption")
    for field in ("image_id", "caption"):
        if field not in record:
            raise InputError(f"{where}: no field {field!r}")
    image_id = record["image_id"]
    caption = record["caption"]
    if not isinstance(caption, str):
        raise InputError(f"{where}: caption is {type(caption).__name__}, expected a string")
    if isinstance(image_id, (bool, float)) or not isinstance(image_id, (int, str)):
        raise InputError(f"{where}: image_id {image_id!r} is not an integer or a string")
    return image_id, caption


def read_coco_annotations(path: str | Path) -> dict[Any, list[str]]:
    """Image id -> reference captions of a COCO captions file (see the module docstring).

    Raises:
        InputError: not JSON, no ``annotations`` list, or a bad annotation (its index named).
    """
    data = _load_json(path)
    if not isinstance(data, Mapping) or not isinstance(data.get("annotations"), list):
        raise InputError(f"{path}: not a COCO captions file (no 'annotations' list)")
    references: dict[Any, list[str]] = {}
    images = data.get("images")
    if isinstance(images, list):
        for index, image in enumerate(images):
            if isinstance(image, Mapping) and "id" in image:
                references.setdefault(image["id"], [])
            else:
                raise InputError(f"{path}: images[{index}] has no 'id'")
    for index, record in enumerate(data["annotations"]):
        image_id, caption = _caption(record, f"{path}: annotations[{index}]")
        references.setdefault(image_id, []).append(caption)
    return {image_id: refs for image_id, refs in references.items() if refs}


def read_coco_results(path: str | Path, known: Mapping[Any, Any] | None = None) -> dict[Any, str]:
    """Image id -> caption of a COCO results file (see the module docstring).

    Raises:
        InputError: not a JSON list, a bad record, an image given twice or not in ``known``.
    """
    data = _load_json(path)
    if not isinstance(data, list):
        raise InputError(f"{path}: not a COCO results file (expected a JSON list)")
    results: dict[Any, str] = {}
    for index, record in enumerate(data):
        where = f"{path}: [{index}]"
        image_id, caption = _caption(record, where)
        if image_id in results:
            raise InputError(f"{where}: image {image_id!r} has a second caption")
        if known is not None and image_id not in known:
            raise InputError(f"{where}: image {image_id!r} has no reference caption")
        results[image_id] = caption
    if not results:
        raise InputError(f"{path}: no caption")
    return results


@dataclass
class CaptionCorpus:
    """Images with their references and each system's caption, tokenized.

    Attributes:
        image_ids: The images, in annotation order.
        references: Per image, its references (tokens joined by spaces).
        hypotheses: Per system name, per image, its caption (tokens joined by spaces).
    """

    image_ids: list[Any]
    references: list[list[str]]
    hypotheses: dict[str, list[str]]


def caption_corpus(
    references: Mapping[Any, Sequence[str]],
    systems: Mapping[str, Mapping[Any, str]],
    *,
    tokenize: bool = True,
    sources: Mapping[str, str] | None = None,
) -> CaptionCorpus:
    """The images the systems caption, tokenized as pycocoevalcap does (module docstring).

    Args:
        references: Image id -> raw reference captions.
        systems: System name -> image id -> raw caption (every system the same images).
        tokenize: ``False``: the captions are already tokenized (used as they are).
        sources: System name -> file, for error messages.

    Raises:
        InputError: systems that caption different images, or an image without reference.
    """
    if not systems:
        raise InputError("no system to score")
    names = list(systems)
    first = systems[names[0]]
    for name in names[1:]:
        if systems[name].keys() != first.keys():
            missing = next(iter(first.keys() - systems[name].keys()), None)
            extra = next(iter(systems[name].keys() - first.keys()), None)
            where = (sources or {}).get(name, name)
            detail = (
                f"no caption of image {missing!r}"
                if missing is not None
                else (f"a caption of image {extra!r} that {names[0]!r} does not have")
            )
            raise InputError(f"{where}: {detail}; every system must caption the same images")
    image_ids = [image_id for image_id in references if image_id in first]
    if len(image_ids) != len(first):
        unknown = next(i for i in first if i not in references)
        raise InputError(f"image {unknown!r} has no reference caption")
    flat = [caption for image_id in image_ids for caption in references[image_id]]
    if tokenize:
        flat = caption_tokens(flat)
    grouped: list[list[str]] = []
    position = 0
    for image_id in image_ids:
        count = len(references[image_id])
        grouped.append(flat[position : position + count])
        position += count
    hypotheses: dict[str, list[str]] = {}
    for name in names:
        captions = [systems[name][image_id] for image_id in image_ids]
        hypotheses[name] = caption_tokens(captions) if tokenize else captions
    return CaptionCorpus(image_ids, grouped, hypotheses)
