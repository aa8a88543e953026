"""Scheduling and redistributing tasks on a star (master-worker) platform (STAR).

The documents are those of ``redist star plan|check|order`` (docs/formats.md): an instance
``{"star": {"c", "w", "loads"}}`` and a schedule as ``plan`` returns it. Divisible load is
``redist.dlt``.
"""

from . import _json, _picture, _redist

__all__ = ["plan", "check", "order", "gantt"]


def plan(instance, **options):
    """Plan a redistribution of the tasks: what ``redist star plan`` prints.

    Takes the instance document ``{"star": {...}}`` and the command line's option as a keyword:
    ``algorithm`` (``bba``, ``mbbsa``, ``mbbsa-lazy``, ``rbsa``, ``exact``, ``best``: the default);
    an option given as None keeps its default.
    Returns the schedule: ``algorithm``, ``makespan``, ``lower_bound`` and ``gap`` (None when
    no bound is known), ``optimal``, ``status``,
    ``transfers``, ...
    The result is a dict that also draws itself: ``.svg()`` is the Gantt chart that
    ``--gantt`` writes (docs/python.md, "Pictures"); ``format="text"`` returns a str instead.
    Raises ValueError with the command line's error text for an invalid instance, an unknown
    option or a bad option value.

    >>> plan({"star": {"c": [1, 1], "w": [2, 2], "loads": [2, 0]}})["makespan"]
    4.0
    """
    return _picture.plan("star", _redist.star.plan, instance, options)


def check(instance, schedule):
    """Check a schedule against the instance: what ``redist star check`` prints.

    Takes the instance document and a schedule (as ``plan`` returns it). Returns
    ``{"valid": True, "makespan": m}`` or ``{"valid": False, "reason": r}``,
    each with ``"seconds"`` (the wall time spent).
    Raises ValueError with the command line's error text when a document is malformed.

    >>> star = {"star": {"c": [1, 1], "w": [2, 2], "loads": [2, 0]}}
    >>> check(star, plan(star))["valid"]
    True
    """
    return _json.call(_redist.star.check, instance, schedule)


def order(instance):
    """The optimal order of the transfers when computation is neglected (STAR Theorem 1): what
    ``redist star order`` prints.

    Takes ``{"star": {"c", "delta"}}``. Returns the schedule. Raises ValueError for an invalid
    instance.

    >>> order({"star": {"c": [1, 2], "delta": [1, -1]}})["makespan"]
    3.0
    """
    return _json.call(_redist.star.order, instance)


def gantt(instance, schedule, title="redist star check"):
    """The SVG picture of a schedule that the validator accepts, drawn by the C++ renderer: what
    ``redist star check --gantt FILE`` writes (a Gantt chart: a row for the master and for each
    worker, with send, receive and compute lanes).

    Takes the instance and a schedule (as ``plan`` returns it), each a dict or the path of a JSON
    file, and the start of the title line. Returns an ``Svg``: a str that a notebook shows as a
    picture. Raises ValueError with the command line's error text when a document is malformed or
    the picture would be over the renderer's size limits, and ValueError ``cannot draw an invalid
    schedule: <reason>`` when the validator refuses it.

    >>> x = {"star": {"c": [1, 1], "w": [2, 2], "loads": [2, 0]}}
    >>> gantt(x, plan(x)).startswith("<svg")
    True
    """
    return _picture.gantt("star", instance, schedule, title)
