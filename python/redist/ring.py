"""Redistributing identical items on a processor ring under the one-port model (RRV04).

The documents are those of ``redist ring plan|check|bound`` (docs/formats.md): an instance
``{"ring": {"bidirectional", "loads", "targets", "cost_next", "cost_prev"}}`` and a schedule as
``plan`` returns it.
"""

from . import _json, _picture, _redist

__all__ = ["plan", "check", "bound", "gantt"]


def plan(instance, **options):
    """Plan a redistribution of the ring: what ``redist ring plan`` prints.

    Takes the instance document ``{"ring": {...}}`` and the command line's options as keywords:
    ``algorithm`` (``auto``, the default, picks the best that applies; ``exact``, ...) and
    ``solver`` (``fast`` or ``lp``); an option given as None keeps its default.
    Returns the schedule: ``algorithm``, ``makespan``, ``lower_bound`` and ``gap`` (None when
    no bound is known), ``optimal``, ``status``,
    ``transfers``, ...
    The result is a dict that also draws itself: ``.svg()`` is the Gantt chart that
    ``--gantt`` writes (docs/python.md, "Pictures"); ``format="text"`` returns a str instead.
    Raises ValueError with the command line's error text for an invalid instance, an unknown
    option or a bad option value.

    >>> plan({"ring": {"loads": [2, 0], "targets": [1, 1], "cost_next": 1}})["makespan"]
    1.0
    """
    return _picture.plan("ring", _redist.ring.plan, instance, options)


def check(instance, schedule):
    """Check a schedule against the instance: what ``redist ring check`` prints.

    Takes the instance document and a schedule (as ``plan`` returns it). Returns the verdict
    ``{"valid": True, "makespan": m}`` or ``{"valid": False, "reason": r}``,
    each with ``"seconds"`` (the wall time spent).
    Raises ValueError with the command line's error text when a document is malformed.

    >>> ring = {"ring": {"loads": [2, 0], "targets": [1, 1], "cost_next": 1}}
    >>> verdict = check(ring, plan(ring))
    >>> verdict["valid"], verdict["makespan"]
    (True, 1.0)
    """
    return _json.call(_redist.ring.check, instance, schedule)


def bound(instance):
    """Lower bounds on the redistribution time: what ``redist ring bound`` prints.

    Takes the instance document. Returns ``{"lower_bound": x, "terms": {...}}``, every bound of
    the papers that applies and the largest. Raises ValueError for an invalid instance.

    >>> bound({"ring": {"loads": [2, 0], "targets": [1, 1], "cost_next": 1}})["lower_bound"]
    1.0
    """
    return _json.call(_redist.ring.bound, instance)


def gantt(instance, schedule, title="redist ring check"):
    """The SVG picture of a schedule that the validator accepts, drawn by the C++ renderer: what
    ``redist ring check --gantt FILE`` writes (a Gantt chart: a row per processor with its send and
    receive lanes).

    Takes the instance and a schedule (as ``plan`` returns it), each a dict or the path of a JSON
    file, and the start of the title line. Returns an ``Svg``: a str that a notebook shows as a
    picture. Raises ValueError with the command line's error text when a document is malformed or
    the picture would be over the renderer's size limits, and ValueError ``cannot draw an invalid
    schedule: <reason>`` when the validator refuses it.

    >>> x = {"ring": {"loads": [2, 0], "targets": [1, 1], "cost_next": 1}}
    >>> gantt(x, plan(x)).startswith("<svg")
    True
    """
    return _picture.gantt("ring", instance, schedule, title)
