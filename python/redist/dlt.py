"""Redistributing divisible load on a switch, multiport and overlapped (STAR section 5).

The documents are those of ``redist dlt plan|check`` (docs/formats.md): an instance
``{"dlt": {"b", "s", "alpha"}}`` and a schedule as ``plan`` returns it.
"""

from . import _json, _picture, _redist

__all__ = ["plan", "check", "gantt"]


def plan(instance, **options):
    """The optimal schedule (LP 7, equations 8-9): what ``redist dlt plan`` prints.

    Takes the instance document ``{"dlt": {...}}`` and the command line's option as a keyword:
    ``solver`` (``fast``, the default, or ``lp``); an option given as None keeps its default.
    Returns the schedule: ``makespan``, ``lower_bound``, ``gap``, ``optimal``, ``status``,
    ``delta``, the transfers...
    The result is a dict that also draws itself: ``.svg()`` is the Gantt chart that
    ``--gantt`` writes (docs/python.md, "Pictures"); ``format="text"`` returns a str instead.
    Raises ValueError with the command line's error text for an invalid instance, an unknown
    option or a bad option value.

    >>> plan({"dlt": {"b": [1, 1], "s": [1, 1], "alpha": [2, 0]}})["makespan"]
    1.0
    """
    return _picture.plan("dlt", _redist.dlt.plan, instance, options)


def check(instance, schedule):
    """Check a divisible-load schedule against the instance: what ``redist dlt check`` prints.

    Takes the instance document and a schedule (as ``plan`` returns it). Returns
    ``{"valid": True, "makespan": m}`` or ``{"valid": False, "reason": r}``,
    each with ``"seconds"`` (the wall time spent).
    Raises ValueError with the command line's error text when a document is malformed.

    >>> d = {"dlt": {"b": [1, 1], "s": [1, 1], "alpha": [2, 0]}}
    >>> check(d, plan(d))["valid"]
    True
    """
    return _json.call(_redist.dlt.check, instance, schedule)


def gantt(instance, schedule, title="redist dlt check"):
    """The SVG picture of a schedule that the validator accepts, drawn by the C++ renderer: what
    ``redist dlt check --gantt FILE`` writes (a Gantt chart: a row per worker with send, receive and
    compute lanes).

    Takes the instance and a schedule (as ``plan`` returns it), each a dict or the path of a JSON
    file, and the start of the title line. Returns an ``Svg``: a str that a notebook shows as a
    picture. Raises ValueError with the command line's error text when a document is malformed or
    the picture would be over the renderer's size limits, and ValueError ``cannot draw an invalid
    schedule: <reason>`` when the validator refuses it.

    >>> x = {"dlt": {"b": [1, 1], "s": [1, 1], "alpha": [2, 0]}}
    >>> gantt(x, plan(x)).startswith("<svg")
    True
    """
    return _picture.gantt("dlt", instance, schedule, title)
