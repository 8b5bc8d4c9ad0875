"""Generate a caption corpus in COCO formats: raw captions written the way people write them.

The corpus stands in for COCO/Flickr caption files (which cannot be shipped here): each image
gets a scene (who, doing what, where) and five references written from it by independent
"annotators" with their own habits (capitals, final periods, trailing spaces, contractions,
possessives, numbers, hyphens, quotes, brackets, abbreviations, non-ASCII letters, typos such as a
missing space after a comma), and each system's result is another description of the scene with
some words wrong. Everything is drawn from a seeded ``random.Random``, so the output is the same
on every machine and Python version.

Usage::

    python scripts/make_caption_corpus.py --images 8000 --systems 2 --out DIR

writes ``DIR/captions.json`` (COCO annotations: ``images`` and ``annotations``) and
``DIR/results-1.json`` ... (COCO results: ``[{"image_id", "caption"}]``). The test corpus under
``tests/data/captions/`` was made with ``--images 400 --systems 2 --seed 24``; the benchmark
builds its 8,000 images with the same code.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

SUBJECTS = [
    "man",
    "woman",
    "young boy",
    "little girl",
    "dog",
    "cat",
    "group of people",
    "giraffe",
    "zebra",
    "elephant",
    "baseball player",
    "tennis player",
    "surfer",
    "skier",
    "skateboarder",
    "teddy bear",
    "double-decker bus",
    "train",
    "airplane",
    "horse",
    "cow",
    "bird",
    "couple",
    "chef",
    "police officer",
    "child",
    "brown bear",
    "pizza",
    "plate of food",
    "motorcycle",
]
PLURALS = {"man": "men", "woman": "women", "child": "children", "bus": "buses", "couple": "couples"}
ADJECTIVES = [
    "red",
    "white",
    "black",
    "large",
    "small",
    "young",
    "old",
    "blue",
    "green",
    "brown",
    "black-and-white",
    "well-dressed",
    "half-eaten",
    "brightly colored",
    "yellow",
    "fluffy",
]
VERBS = [
    "riding",
    "holding",
    "sitting on",
    "standing next to",
    "eating",
    "playing with",
    "looking at",
    "laying on",
    "walking down",
    "parked near",
    "flying over",
    "jumping over",
    "carrying",
    "standing in",
    "resting on",
    "waiting for",
]
OBJECTS = [
    "a wave",
    "a skateboard",
    "a frisbee",
    "the beach",
    "a wooden table",
    "a couch",
    "the street",
    "a grassy field",
    "a kite",
    "a surfboard",
    "a snowy slope",
    "a bed",
    "a tennis racket",
    "a slice of pizza",
    "the sidewalk",
    "a fire hydrant",
    "a stop sign",
    "a laptop",
    "a bench",
    "a clock tower",
    "the water",
    "a dirt road",
    "a fence",
    "a cell phone",
    "an umbrella",
]
PLACES = [
    "in the background",
    "on a sunny day",
    "at night",
    "next to a building",
    "in a park",
    "near the ocean",
    "in a kitchen",
    "on a city street",
    "at the zoo",
    "in front of a store",
    "during a game",
    "in the snow",
    "under a blue sky",
    "on St. Patrick's day",
    "in Washington D.C.",
    "at 5 p.m.",
    "on Main St.",
    "at Mr. Smith's house",
    "(in the rain)",
    "at the café",
]
OPENERS = ["", "", "", "There is ", "This is ", "A photo of ", "An image of ", "Close up of "]
NUMBERS = ["two", "three", "2", "3", "4", "five", "10", "1,000", "3.5", "a dozen"]
QUOTES = ['"STOP"', "'welcome'", "\u201cOpen\u201d", '"Joe\'s Diner"', "``hello''"]
EXTRAS = [
    "It's a nice day.",
    "There's a sign that says {q}.",
    "They're having fun!",
    "Isn't it cute?",
    "The man's hat is red.",
    "The dogs' toys are on the floor.",
    "I can't see the face.",
    "It is 10:30 on the clock.",
    "A $5 bill is on the table.",
    "It costs \u00a33.",
    "Wow!!",
    "Something ... else.",
    "e.g. a toy, a ball, etc.",
    "Naïve art, café style -- très chic.",
    "The bus is a 2-story one.",
    "(It's blurry.)",
    "[Photo] {q}",
    "Best in the U.S.",
    "A and/or B w/ C",
    "A & B",
    "AT&T sign",
    "It\u2019s 50% off",
    "5'10\" tall",
    "50's style",
    "I'm not sure; maybe.",
    "You'll see: it's fine",
    "Gonna rain, cannot go",
    "'90s car",
]


def _noun(rng: random.Random, subject: str) -> str:
    count = rng.random()
    if count < 0.25:
        number = rng.choice(NUMBERS)
        plural = PLURALS.get(subject, subject + ("es" if subject.endswith("s") else "s"))
        return f"{number} {plural}"
    article = "an" if subject[0] in "aeiou" else "a"
    if rng.random() < 0.5:
        adjective = rng.choice(ADJECTIVES)
        article = "an" if adjective[0] in "aeiou" else "a"
        return f"{article} {adjective} {subject}"
    return f"{article} {subject}"


def _write(rng: random.Random, scene: tuple[str, str, str, str], habits: dict[str, float]) -> str:
    subject, verb, obj, place = scene
    words = f"{rng.choice(OPENERS)}{_noun(rng, subject)} {verb} {obj}"
    if rng.random() < 0.6:
        words += f" {place}" if rng.random() < 0.8 else f", {place}"
    if rng.random() < habits["extra"]:
        extra = rng.choice(EXTRAS).replace("{q}", rng.choice(QUOTES))
        words += ". " + extra if rng.random() < 0.5 else ", " + extra[0].lower() + extra[1:]
    if rng.random() < habits["typo"]:
        words = words.replace(", ", ",", 1) if ", " in words else words.replace(" a ", " a  ", 1)
    if rng.random() < habits["capital"]:
        words = words[0].upper() + words[1:]
    if rng.random() < habits["upper"]:
        words = words.upper()
    if rng.random() < habits["period"] and words[-1] not in ".!?":
        words += "." if rng.random() < 0.9 else " ."
    if rng.random() < habits["space"]:
        words += " "
    return words


def _habits(rng: random.Random) -> dict[str, float]:
    return {
        "capital": rng.choice([0.1, 0.9, 1.0]),
        "period": rng.choice([0.1, 0.5, 0.95]),
        "space": rng.choice([0.0, 0.1, 0.3]),
        "upper": rng.choice([0.0, 0.0, 0.05]),
        "extra": rng.choice([0.05, 0.15, 0.3]),
        "typo": rng.choice([0.0, 0.05, 0.1]),
    }


def _scene(rng: random.Random) -> tuple[str, str, str, str]:
    return (rng.choice(SUBJECTS), rng.choice(VERBS), rng.choice(OBJECTS), rng.choice(PLACES))


def _mutate(
    rng: random.Random, scene: tuple[str, str, str, str], quality: float
) -> tuple[str, ...]:
    parts = list(scene)
    for index in range(4):
        if rng.random() > quality:
            parts[index] = _scene(rng)[index]
    return tuple(parts)


def generate(
    images: int, systems: int, seed: int
) -> tuple[dict[str, object], list[list[dict[str, object]]]]:
    """The annotations (COCO format) and one results list per system."""
    rng = random.Random(seed)
    annotators = [_habits(rng) for _ in range(12)]
    image_ids = rng.sample(range(1, 600_000), images)
    image_entries: list[dict[str, object]] = []
    annotations: list[dict[str, object]] = []
    scenes: dict[int, tuple[str, str, str, str]] = {}
    for image_id in image_ids:
        scene = _scene(rng)
        scenes[image_id] = scene
        image_entries.append({"id": image_id, "file_name": f"{image_id:012d}.jpg"})
        count = 5 if rng.random() < 0.85 else rng.choice([4, 6, 7])
        for habits in rng.sample(annotators, count):
            caption = _write(rng, _mutate(rng, scene, 0.85), habits)
            annotations.append(
                {"image_id": image_id, "id": len(annotations) + 1, "caption": caption}
            )
    results: list[list[dict[str, object]]] = []
    for system in range(systems):
        quality = 0.75 - 0.15 * system
        habits = {
            "capital": 0.5,
            "period": 0.5,
            "space": 0.0,
            "upper": 0.0,
            "extra": 0.05,
            "typo": 0.0,
        }
        results.append(
            [
                {
                    "image_id": image_id,
                    "caption": _write(rng, _mutate(rng, scenes[image_id], quality), habits),
                }
                for image_id in image_ids
            ]
        )
    annotation_file = {
        "info": {"description": f"generated by make_caption_corpus.py (seed {seed})"},
        "images": image_entries,
        "annotations": annotations,
        "type": "captions",
    }
    return annotation_file, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=400)
    parser.add_argument("--systems", type=int, default=2)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    annotation_file, results = generate(args.images, args.systems, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "captions.json").write_text(
        json.dumps(annotation_file, ensure_ascii=False, indent=0) + "\n", encoding="utf-8"
    )
    for number, result in enumerate(results, start=1):
        (args.out / f"results-{number}.json").write_text(
            json.dumps(result, ensure_ascii=False, indent=0) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
