"""Static load balancing of an iterative computation on a heterogeneous cluster (SLICE): which
processors form the ring, in which order, with which shares.

The documents are those of ``redist slicering plan|check`` (docs/formats.md): a cluster
``{"cluster": {"w", "c", "W", "H"}}`` and a solution as ``plan`` returns it.
"""

from . import _json, _redist

__all__ = ["plan", "check"]


def plan(instance, **options):
    """Choose a ring and shares: what ``redist slicering plan`` prints.

    Takes the cluster document ``{"cluster": {...}}`` and the command line's options as keywords:
    ``algorithm`` (``auto``: the default, ``homogeneous``, ``greedy``, ``tsp``, ``exact``) and ``q`` (an
    int: force the ring size); an option given as None keeps its default.
    Returns the solution: ``ring``, ``alpha``, ``makespan`` (the time of one iteration), ...
    Raises ValueError with the command line's error text for an invalid cluster, an unknown
    option or a bad option value.

    >>> cluster = {"cluster": {"w": [1, 2], "c": [[0, 1], [1, 0]], "W": 10, "H": 1}}
    >>> plan(cluster, algorithm="exact", q=1)["ring"]
    [0]
    """
    return _json.call(_redist.slicering.plan, instance, options=options)


def check(instance, solution):
    """Check a solution against the cluster: what ``redist slicering check`` prints.

    Takes the cluster document and a solution (as ``plan`` returns it). Returns
    ``{"valid": True, "makespan": m}`` or ``{"valid": False, "reason": r}``.
    Raises ValueError with the command line's error text when a document is malformed.

    >>> cluster = {"cluster": {"w": [1, 2], "c": [[0, 1], [1, 0]], "W": 10, "H": 1}}
    >>> check(cluster, plan(cluster))["valid"]
    True
    """
    return _json.call(_redist.slicering.check, instance, solution)
