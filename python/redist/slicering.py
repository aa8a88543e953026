"""Static load balancing of an iterative computation on a heterogeneous cluster (SLICE): which
processors form the ring, in which order, with which shares.

The documents are those of ``redist slicering plan|check`` (docs/formats.md): a cluster
``{"cluster": {"w", "c", "W", "H"}}`` and a solution as ``plan`` returns it.
"""

from . import _json, _picture, _redist

__all__ = ["plan", "check", "gantt"]


def plan(instance, **options):
    """Choose a ring and shares: what ``redist slicering plan`` prints.

    Takes the cluster document ``{"cluster": {...}}`` and the command line's options as keywords:
    ``algorithm`` (``auto``: the default, ``homogeneous``, ``greedy``, ``tsp``, ``exact``) and ``q`` (an
    int: force the ring size); an option given as None keeps its default.
    Returns the solution: ``ring``, ``alpha``, ``makespan`` (the time of one iteration),
    ``lower_bound`` and ``gap`` (None when no bound is known: greedy), ``status``, ...
    Raises ValueError with the command line's error text for an invalid cluster, an unknown
    option or a bad option value.

    >>> cluster = {"cluster": {"w": [1, 2], "c": [[0, 1], [1, 0]], "W": 10, "H": 1}}
    >>> plan(cluster, algorithm="exact", q=1)["ring"]
    [0]
    """
    return _picture.plan("slicering", _redist.slicering.plan, instance, options)


def check(instance, solution):
    """Check a solution against the cluster: what ``redist slicering check`` prints.

    Takes the cluster document and a solution (as ``plan`` returns it). Returns
    ``{"valid": True, "makespan": m}`` or ``{"valid": False, "reason": r}``,
    each with ``"seconds"`` (the wall time spent).
    Raises ValueError with the command line's error text when a document is malformed.

    >>> cluster = {"cluster": {"w": [1, 2], "c": [[0, 1], [1, 0]], "W": 10, "H": 1}}
    >>> check(cluster, plan(cluster))["valid"]
    True
    """
    return _json.call(_redist.slicering.check, instance, solution)


def gantt(instance, solution, title="redist slicering check"):
    """The SVG picture of a solution that the validator accepts, drawn by the C++ renderer: what
    ``redist slicering check --gantt FILE`` writes (a picture of the ring: its processors on a
    circle with their shares and times).

    Takes the instance and a solution (as ``plan`` returns it), each a dict or the path of a JSON
    file, and the start of the title line. Returns an ``Svg``: a str that a notebook shows as a
    picture. Raises ValueError with the command line's error text when a document is malformed or
    the picture would be over the renderer's size limits, and ValueError ``cannot draw an invalid
    schedule: <reason>`` when the validator refuses it.

    >>> x = {"cluster": {"w": [1, 2], "c": [[0, 1], [1, 0]], "W": 10, "H": 1}}
    >>> gantt(x, plan(x)).startswith("<svg")
    True
    """
    return _picture.gantt("slicering", instance, solution, title)
