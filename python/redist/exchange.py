"""Any redistribution as messages between the nodes of a switched network, under the one-port
model.

The documents are those of ``redist exchange plan|check|bound|block-cyclic|migration``
(docs/exchange.md): an instance ``{"exchange": {"nodes", "messages", "send_bandwidth",
"recv_bandwidth", "latency", "backbone"}}``, a plan as ``plan`` returns it, and the ownership maps
``{"old", "new", "item_bytes"}`` that ``migration`` reads.
"""

from . import _json, _picture, _redist

__all__ = ["plan", "check", "bound", "gantt", "block_cyclic", "migration"]


def plan(instance, **options):
    """Plan the pieces of every message: what ``redist exchange plan`` prints.

    Takes the instance document ``{"exchange": {...}}`` and the command line's options as
    keywords: ``algorithm`` (``auto``, the default; ``preemptive``; ``whole``; ``exact``; the
    step algorithms ``ggp``, ``oggp``, ``steps``, ``min-steps``, ``caterpillar``) and ``format``;
    an option given as None keeps its default.
    Returns the plan: ``algorithm``, ``makespan``, ``lower_bound`` and ``gap`` (None when
    no bound is known), ``optimal``, ``status``, ``pieces``
    (and ``steps`` for a step algorithm).
    Raises ValueError with the command line's error text for an invalid instance or option.

    >>> plan({"exchange": {"nodes": 2, "messages": [[0, 1, 8]]}})["makespan"]
    8.0
    """
    return _picture.plan("exchange", _redist.exchange.plan, instance, options)


def check(instance, plan_document):
    """Check a plan against the instance: what ``redist exchange check`` prints.

    Takes the instance document and a plan (as ``plan`` returns it). Returns the verdict
    ``{"valid": True, "makespan": m}`` or ``{"valid": False, "reason": r}``,
    each with ``"seconds"`` (the wall time spent).
    Raises ValueError with the command line's error text when a document is malformed.

    >>> x = {"exchange": {"nodes": 2, "messages": [[0, 1, 8]]}}
    >>> verdict = check(x, plan(x))
    >>> verdict["valid"], verdict["makespan"]
    (True, 8.0)
    """
    return _json.call(_redist.exchange.check, instance, plan_document)


def bound(instance):
    """Lower bounds on the exchange time: what ``redist exchange bound`` prints.

    Takes the instance document. Returns ``{"lower_bound": x, "terms": {"ports": x, ...}}``.
    Raises ValueError for an invalid instance.

    >>> bound({"exchange": {"nodes": 2, "messages": [[0, 1, 8]]}})["lower_bound"]
    8.0
    """
    return _json.call(_redist.exchange.bound, instance)


def gantt(instance, plan_document, title="redist exchange check"):
    """The SVG picture of a plan that the validator accepts, drawn by the C++ renderer:
    what ``redist exchange check --gantt FILE`` writes (a Gantt chart: a row per node with its
    send and receive ports).

    Takes the instance and a plan (as ``plan`` returns it), each a dict or the path of a JSON file,
    and the start of the title line. Returns an ``Svg``: a str that a notebook shows as a picture.
    Raises ValueError with the command line's error text when a document is malformed or the picture
    would be over the renderer's size limits, and ValueError ``cannot draw an invalid schedule:
    <reason>`` when the validator refuses it.

    >>> x = {"exchange": {"nodes": 2, "messages": [[0, 1, 8]]}}
    >>> gantt(x, plan(x)).startswith("<svg")
    True
    """
    return _picture.gantt("exchange", instance, plan_document, title)


def block_cyclic(elements, from_block, from_procs, to_block, to_procs, element_bytes=1):
    """The instance of moving a 1-D array of ``elements`` elements of ``element_bytes`` bytes from
    CYCLIC(``from_block``) on ``from_procs`` processors to CYCLIC(``to_block``) on ``to_procs``:
    what ``redist exchange block-cyclic`` prints (element e is on processor floor(e / r) mod P
    before and floor(e / s) mod Q after; bandwidths 1, latency 0).

    Takes integers, as the command line's options. Returns the instance ``{"exchange": {...}}``
    (with ``"seconds"``), which ``plan`` takes as it is.
    Raises ValueError with the command line's error text (``... (at --from-procs)``).

    >>> x = block_cyclic(24, 2, 3, 3, 4)
    >>> x["exchange"]["nodes"], x["exchange"]["messages"][0]
    (4, [0, 2, 4])
    """
    return _json.call_texts(_redist.exchange.block_cyclic, [], {
        "elements": elements, "element_bytes": element_bytes, "from_block": from_block,
        "from_procs": from_procs, "to_block": to_block, "to_procs": to_procs})


def migration(ownership, nodes=None):
    """The instance of moving items from their old owners to their new ones: what ``redist
    exchange migration`` prints.

    Takes the ownership maps ``{"old": owners, "new": owners, "item_bytes": b}`` (each map item by
    item, or as ranges ``[begin, end, owner]``; docs/formats.md), a dict or the path of a JSON
    file, and ``nodes`` (None: 1 + the largest owner). Returns the instance ``{"exchange": ...}``
    (with ``"seconds"``).
    Raises ValueError with the command line's error text (``... (at $.old[2])``).

    >>> migration({"old": [0, 0, 1, 1], "new": [[0, 1, 0], [1, 4, 2]]})["exchange"]["messages"]
    [[0, 2, 1], [1, 2, 2]]
    """
    return _json.call(_redist.exchange.migration, ownership, options={"nodes": nodes})
