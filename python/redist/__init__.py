"""redist for Python: plan and check data redistributions on heterogeneous platforms.

One module per family of the command line, each function taking and returning dicts that are
the JSON documents ``redist`` reads and prints (docs/formats.md):

- ``redist.ring``: plan, check, bound (redistribution on processor rings)
- ``redist.lau``: plan, check, eval (Lau's load distribution on rings)
- ``redist.star``: plan, check, order (tasks on star platforms)
- ``redist.dlt``: plan, check (divisible load on a switch)
- ``redist.exchange``: plan, check, bound (any redistribution as messages between nodes)
- ``redist.slicering``: plan, check (static load balancing on a cluster ring)
- ``redist.balance``: plan, advise, simulate (rebalancing an iterative application)

Every document is a dict or the path of a JSON file (a str or an os.PathLike). Each family also
has ``gantt(instance, schedule)``, the SVG picture ``check --gantt`` writes, and its plans draw
themselves: ``redist.ring.plan(instance).svg()`` (an ``Svg``, a str; a notebook shows both as
pictures).

Bad input raises ValueError whose message is the command line's ``error:`` line without its
prefix, for example ``load must be >= 0 (at $.ring.loads[1])``; a NaN or an infinity in a dict
raises ValueError at its place (``must be a finite number, got nan (at $.ring.cost_next[2])``).

>>> import redist
>>> redist.ring.plan({"ring": {"loads": [2, 0], "targets": [1, 1], "cost_next": 1}})["makespan"]
1.0
"""

import importlib
import sys

from . import _family, _redist
from ._picture import Drawable, Plan, Svg
from . import balance


def _family_module(name):
    """The package's module of the family ``name`` of the C++ list: its own (``ring.py``, with
    its documentation and what the family adds), or else plan, check and gantt alone."""
    try:
        return importlib.import_module(f".{name}", __name__)
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{name}":
            raise
    module = _family.module(name)
    sys.modules[module.__name__] = module
    return module


for _name in _redist.FAMILIES:
    globals()[_name] = _family_module(_name)

__version__ = _redist.__version__
__all__ = sorted([*_redist.FAMILIES, "balance"])
