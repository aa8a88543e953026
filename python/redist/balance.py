"""Rebalancing an iterative application on a heterogeneous ring: whether to rebalance now and
to what, and how the policies fare on a trace of speeds (RRV04 section 8).

The documents are those of ``redist balance advise|simulate`` (docs/formats.md). There is no
check: the advised redistribution is a ring schedule, which ``redist.ring.check`` checks.
"""

from . import _json, _picture, _redist

__all__ = ["plan", "advise", "simulate", "gantt"]

# The title of the advice's picture, as `redist balance advise --gantt` draws it.
_TITLE = "redist balance advise"


def advise(instance, **options):
    """Should the application rebalance now, and to what: what ``redist balance advise`` prints.

    Takes ``{"balance": {"ring", "loads", "speeds", "remaining_iterations"}}``; no option is
    accepted yet. Returns the advice: ``rebalance``, ``targets``, the planned ``schedule``...,
    a dict that also draws itself: ``.svg()`` is the Gantt chart of the advised redistribution
    that ``--gantt`` writes (docs/python.md, "Pictures").
    Raises ValueError with the command line's error text for an invalid instance or any option.

    >>> advice = advise({"balance": {"ring": {"cost_next": [1, 1]}, "loads": [10, 10],
    ...                              "speeds": [1, 1], "remaining_iterations": 5}})
    >>> advice["rebalance"]
    False
    """
    return _picture.plan("balance", _redist.balance.advise, instance, options, _TITLE)


def plan(instance, **options):
    """The family's plan: the advice, exactly as ``advise`` (what ``redist balance advise``
    prints).

    Takes the same instance as ``advise``; no option is accepted yet. Returns the advice, which
    draws itself as ``advise``'s does.
    Raises ValueError with the command line's error text for an invalid instance or any option.

    >>> plan({"balance": {"ring": {"cost_next": [1, 1]}, "loads": [10, 10],
    ...                   "speeds": [1, 1], "remaining_iterations": 5}})["rebalance"]
    False
    """
    return _picture.plan("balance", _redist.balance.plan, instance, options, _TITLE)


def simulate(instance, policy, **options):
    """Run a trace of speeds under a rebalancing policy: what ``redist balance simulate`` prints.

    Takes the trace ``{"balance": {"ring", "speeds", "loads" | "items"}}`` and the policy, as the
    command line's ``--policy`` (``never``, ``every:E``, ``threshold:R``, ``cost-benefit``,
    ``replay``, ``oracle``, ...). Returns the totals, the rebalances and the iteration times.
    Raises ValueError with the command line's error text for an invalid trace, an unknown
    policy or an unknown option.

    >>> trace = {"balance": {"ring": {"cost_next": [1, 1]}, "loads": [10, 10],
    ...                      "speeds": [[1, 1], [1, 1]]}}
    >>> simulate(trace, policy="never")["rebalances"]
    []
    """
    return _json.call(_redist.balance.simulate, instance, options=dict(options, policy=policy))


def gantt(instance, advice, title=_TITLE):
    """The SVG picture of an advice's redistribution, drawn by the C++ renderer: what
    ``redist balance advise --gantt FILE`` writes (the ring's Gantt chart of
    ``advice["schedule"]``, which moves the instance's loads to ``advice["targets"]``).

    Takes the instance and an advice (as ``advise`` returns it), each a dict or the path of a
    JSON file, and the start of the title line. Returns an ``Svg``: a str that a notebook shows
    as a picture. Raises ValueError with the command line's error text when a document is
    malformed or the picture would be over the renderer's size limits, and ValueError
    ``cannot draw an invalid schedule: <reason>`` when the ring's validator refuses the schedule.

    >>> x = {"balance": {"ring": {"cost_next": [1, 1]}, "loads": [10, 10],
    ...                  "speeds": [1, 1], "remaining_iterations": 5}}
    >>> gantt(x, advise(x)).startswith("<svg")
    True
    """
    return _picture.gantt("balance", instance, advice, title)
