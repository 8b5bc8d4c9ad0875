"""``sacrebleu.utils`` is not part of the drop-in: its names raise ``NotImplementedError``."""

from __future__ import annotations

from meteor_eval.compat.sacrebleu._missing import missing_attributes

__all__: list[str] = []

__getattr__ = missing_attributes(
    "sacrebleu.utils",
    [
        (name, "data")
        for name in (
            "SACREBLEU_DIR",
            "download_test_set",
            "get_available_testsets",
            "get_langpairs_for_testset",
            "get_reference_files",
            "get_source_file",
            "smart_open",
            "print_test_set",
        )
    ]
    + [(name, "cli") for name in ("print_results_table", "print_single_results", "args_to_dict")]
    + [(name, "other") for name in ("my_log", "sum_of_lists", "sanity_check_lengths")],
)
