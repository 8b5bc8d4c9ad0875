"""mkdocs hook: replace ``<!-- cli-reference -->`` with every command's options, generated from
``meteor_eval.cli.build_parser()`` (the reference is never written twice)."""

from __future__ import annotations

import argparse
from typing import Any

MARKER = "<!-- cli-reference -->"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _escape(text: str) -> str:
    """Plain text for a Markdown table cell (no links, no cell breaks)."""
    return (
        text.replace("\\", "\\\\")
        .replace("|", "\\|")
        .replace("[", "\\[")
        .replace("]", "\\]")
        .replace("\n", " ")
    )


def _option_rows(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        names = ", ".join(f"`{name}`" for name in action.option_strings) or f"`{action.dest}`"
        if action.metavar and action.option_strings:
            names += f" `{action.metavar}`"
        choices = f" (one of: {', '.join(map(str, action.choices))})" if action.choices else ""
        text = _escape((action.help or "").replace("%%", "%"))
        rows.append(f"| {names} | {text}{choices} |")
    return rows


def reference() -> str:
    """The whole reference, as Markdown."""
    from meteor_eval.cli import build_parser

    parser = build_parser()
    lines = ["```text", parser.format_usage().strip(), "```", ""]
    for name, sub in _subparsers(parser).items():
        lines += [f"## `meteor-eval {name}`", "", _escape(sub.description or ""), ""]
        lines += ["```text", sub.format_usage().strip(), "```", ""]
        lines += ["| option | meaning |", "|---|---|", *_option_rows(sub), ""]
    return "\n".join(lines)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Fill the marker of the CLI reference page."""
    if MARKER in markdown:
        return markdown.replace(MARKER, reference())
    return markdown
