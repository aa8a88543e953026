"""The module of a planning family that has no module of its own in the package.

Every family of the C++ list (``_redist.FAMILIES``) has ``plan``, ``check`` and ``gantt`` in the
extension module; this builds the package's module of the same three functions on dicts, as the
families' own modules (``redist.ring``, ...) define them with their documentation.
"""

import types

from . import _json, _picture, _redist


def module(name):
    """The module ``redist.<name>``: plan, check and gantt of the family ``name``."""
    entries = getattr(_redist, name)
    family = types.ModuleType(f"{__package__}.{name}", entries.__doc__)

    def plan(instance, **options):
        """What ``redist FAMILY plan`` prints, as a dict that draws itself (``.svg()``), or a str
        for ``format="text"``. Raises ValueError with the command line's error text."""
        return _picture.plan(name, entries.plan, instance, options)

    def check(instance, result):
        """What ``redist FAMILY check`` prints: the validator's verdict on a result document.
        Raises ValueError with the command line's error text."""
        return _json.call(entries.check, instance, result)

    def gantt(instance, result, title=f"redist {name} check"):
        """The SVG picture ``redist FAMILY check --gantt`` writes for a valid result (an
        ``Svg``). Raises ValueError with the command line's error text."""
        return _picture.gantt(name, instance, result, title)

    for function in (plan, check, gantt):
        function.__module__ = family.__name__
        function.__doc__ = function.__doc__.replace("FAMILY", name)
        setattr(family, function.__name__, function)
    family.__all__ = ["plan", "check", "gantt"]
    return family
