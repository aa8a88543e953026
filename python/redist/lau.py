"""Lau's load distribution schedules on a ring, single- and multi-send (LAU).

The documents are those of ``redist lau plan|check|eval`` (docs/formats.md): an instance
``{"lau": {"loads", "targets"?}}`` (``"flows"`` too for ``eval``) and a plan as ``plan``
returns it.
"""

from . import _json, _picture, _redist

__all__ = ["plan", "check", "eval", "gantt"]


def plan(instance, **options):
    """Plan the flows of a load distribution: what ``redist lau plan`` prints.

    Takes the instance document ``{"lau": {...}}`` and the command line's options as keywords:
    ``algorithm`` (``linear``, ``traffic``, ``optimal-window``, ``optimal``: the default) and
    ``mode`` (``single``, the default, or ``multi``); an option given as None keeps its default.
    Returns the plan: ``flows``, both times, ``makespan``, ``lower_bound`` and ``gap`` (None
    when no bound is known), ``optimal``, ``status``, ...
    The result is a dict that also draws itself: ``.svg()`` is the step chart that
    ``--gantt`` writes (docs/python.md, "Pictures"); ``format="text"`` returns a str instead.
    Raises ValueError with the command line's error text for an invalid instance, an unknown
    option or a bad option value.

    >>> plan({"lau": {"loads": [4, 0]}})["flows"]
    [2, 0]
    """
    return _picture.plan("lau", _redist.lau.plan, instance, options)


def check(instance, schedule):
    """Check a plan's flows against the instance: what ``redist lau check`` prints.

    Takes the instance document and a plan (as ``plan`` returns it, or just ``{"flows": [...]}``
    with an optional ``"mode"``). Returns ``{"valid": True, "makespan": t}`` or
    ``{"valid": False, "reason": r}``,
    each with ``"seconds"`` (the wall time spent).
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


def gantt(instance, schedule, title="redist lau check"):
    """The SVG picture of a plan that the validator accepts, drawn by the C++ renderer:
    what ``redist lau check --gantt FILE`` writes (a step chart: a column per time step, an arrow
    per message).

    Takes the instance and a plan (as ``plan`` returns it), each a dict or the path of a JSON file,
    and the start of the title line. Returns an ``Svg``: a str that a notebook shows as a picture.
    Raises ValueError with the command line's error text when a document is malformed or the picture
    would be over the renderer's size limits, and ValueError ``cannot draw an invalid schedule:
    <reason>`` when the validator refuses it.

    >>> x = {"lau": {"loads": [4, 0]}}
    >>> gantt(x, plan(x)).startswith("<svg")
    True
    """
    return _picture.gantt("lau", instance, schedule, title)
