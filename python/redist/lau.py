"""Lau's load distribution schedules on a ring, single- and multi-send (LAU).

The documents are those of ``redist lau plan|check|eval`` (docs/formats.md): an instance
``{"lau": {"loads", "targets"?}}`` (``"flows"`` too for ``eval``) and a plan as ``plan``
returns it.
"""

from . import _json, _redist

__all__ = ["plan", "check", "eval"]


def plan(instance, **options):
    """Plan the flows of a load distribution: what ``redist lau plan`` prints.

    Takes the instance document ``{"lau": {...}}`` and the command line's options as keywords:
    ``algorithm`` (``linear``, ``traffic``, ``optimal-window``, ``optimal``: the default) and
    ``mode`` (``single``, the default, or ``multi``); an option given as None keeps its default.
    Returns the plan: ``flows``, both times, ``makespan``, ``lower_bound``, ``optimal``, ...
    Raises ValueError with the command line's error text for an invalid instance, an unknown
    option or a bad option value.

    >>> plan({"lau": {"loads": [4, 0]}})["flows"]
    [2, 0]
    """
    return _json.call(_redist.lau.plan, instance, options=options)


def check(instance, schedule):
    """Check a plan's flows against the instance: what ``redist lau check`` prints.

    Takes the instance document and a plan (as ``plan`` returns it, or just ``{"flows": [...]}``
    with an optional ``"mode"``). Returns ``{"valid": True, "makespan": t}`` or
    ``{"valid": False, "reason": r}``.
    Raises ValueError with the command line's error text when a document is malformed.

    >>> check({"lau": {"loads": [4, 0]}}, {"flows": [2, 0]})["valid"]
    True
    """
    return _json.call(_redist.lau.check, instance, schedule)


def eval(instance):  # noqa: A001 (the command's name)
    """Execution times of given flows in both send modes: what ``redist lau eval`` prints.

    Takes the instance document with the flows, ``{"lau": {"loads", "targets"?, "flows"}}``.
    Returns ``t_single``, ``t_multi`` (None when the flows deadlock), ``t_multi_by``,
    ``traffic`` and ``h``. Raises ValueError for an invalid instance or flows.

    >>> eval({"lau": {"loads": [4, 0], "flows": [2, 0]}})["t_single"]
    1
    """
    return _json.call(_redist.lau.eval, instance)
