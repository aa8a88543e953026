"""Scheduling and redistributing tasks on a star (master-worker) platform (STAR).

The documents are those of ``redist star plan|check|order`` (docs/formats.md): an instance
``{"star": {"c", "w", "loads"}}`` and a schedule as ``plan`` returns it. Divisible load is
``redist.dlt``.
"""

from . import _json, _redist

__all__ = ["plan", "check", "order"]


def plan(instance, **options):
    """Plan a redistribution of the tasks: what ``redist star plan`` prints.

    Takes the instance document ``{"star": {...}}`` and the command line's option as a keyword:
    ``algorithm`` (``bba``, ``mbbsa``, ``mbbsa-lazy``, ``rbsa``, ``exact``, ``best``: the default);
    an option given as None keeps its default.
    Returns the schedule: ``algorithm``, ``makespan``, ``lower_bound``, ``optimal``,
    ``transfers``, ...
    Raises ValueError with the command line's error text for an invalid instance, an unknown
    option or a bad option value.

    >>> plan({"star": {"c": [1, 1], "w": [2, 2], "loads": [2, 0]}})["makespan"]
    4.0
    """
    return _json.call(_redist.star.plan, instance, options=options)


def check(instance, schedule):
    """Check a schedule against the instance: what ``redist star check`` prints.

    Takes the instance document and a schedule (as ``plan`` returns it). Returns
    ``{"valid": True, "makespan": m}`` or ``{"valid": False, "reason": r}``.
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
