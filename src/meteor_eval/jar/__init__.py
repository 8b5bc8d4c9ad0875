"""Byte-exact emulation of the ``meteor-1.5.jar`` command line (``meteor-eval jar-compat``).

Modules: :mod:`~meteor_eval.jar.options` (argv), :mod:`~meteor_eval.jar.config` (option
resolution, header, Eval ID), :mod:`~meteor_eval.jar.lines` (the jar's line reading),
:mod:`~meteor_eval.jar.plaintext`, :mod:`~meteor_eval.jar.sgml` and :mod:`~meteor_eval.jar.stdio`
(the three modes) and :mod:`~meteor_eval.jar.output` (printed formats). Differences from the jar,
all where it crashes or hangs, are listed in each module and in ``docs/jar-compat.md``.
"""
