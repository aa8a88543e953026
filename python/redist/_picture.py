"""Pictures: the SVG documents of the C++ renderers (redist/svg/), for files and notebooks.

``Svg`` is the text of one picture; ``Drawable`` a result document (a plan, an advice) that can
draw itself. Both define ``_repr_svg_``, so that Jupyter shows them as pictures. Nothing is drawn
here: the extension module's ``gantt`` entry points render, after checking the schedule.
"""

from . import _json, _redist


class Svg(str):
    """The text of an SVG document (a str: write it to a file as it is). A notebook shows it as
    a picture."""

    __slots__ = ()

    def _repr_svg_(self):
        return str(self)


def _draw(family, instance_text, schedule_text, title):
    return Svg(getattr(_redist, family).gantt(instance_text, schedule_text, title))


def gantt(family, instance, schedule, title):
    """The picture of a valid schedule of ``family`` (documents: dicts or paths), as ``Svg``:
    what ``redist FAMILY check --gantt`` writes when ``title`` is ``"redist FAMILY check"``."""
    return _draw(family, _json.document_text(instance), _json.document_text(schedule), title)


class Drawable(dict):
    """A result document, a dict equal to what the command line prints, that draws itself:
    ``svg()`` is the picture ``--gantt`` writes for it. It keeps the JSON text of its instance
    for that. Printed, compared, copied, pickled and written with ``json.dumps`` as a dict."""

    def __init__(self, document, family, instance_text, title):
        super().__init__(document)
        self._picture = (family, instance_text, title)

    def svg(self):
        """The SVG picture of this document on its instance, drawn by the C++ renderer (an
        ``Svg``, a str). Raises ValueError when the document no longer passes the family's
        validator (it was changed) or the picture would be over the renderer's size limits."""
        family, instance_text, title = self._picture
        return _draw(family, instance_text, _json.document_text(dict(self)), title)

    def _repr_svg_(self):
        """The picture for a notebook; None (the dict is shown instead) when it cannot be
        drawn."""
        try:
            return str(self.svg())
        except ValueError:
            return None


class Plan(Drawable):
    """A planner's result (a ``Drawable``): its claims as the JSON document states them,
    ``status`` ("optimal", "feasible", "time limit" or "node limit") among them. The document
    leaves out ``lower_bound`` and ``gap`` when no bound is known; ``plan["lower_bound"]`` and
    ``plan["gap"]`` are then None (the dict itself, and what ``check`` reads, stays the
    document)."""

    _UNKNOWN_WHEN_ABSENT = ("lower_bound", "gap")

    def __missing__(self, key):
        if key in self._UNKNOWN_WHEN_ABSENT:
            return None
        raise KeyError(key)


def plan(family, entry, instance, options, title=None):
    """``entry`` (a plan or an advice of ``family``) on ``instance`` with ``options``: a
    ``Drawable`` (a ``Plan`` for a planner's result, which states its status) whose picture is
    titled ``title`` (``redist FAMILY plan`` by default), or a str for ``format="text"``."""
    text = _json.document_text(instance)
    result = _json.call_texts(entry, [text], options)
    if isinstance(result, str):
        return result
    kind = Plan if "status" in result else Drawable
    return kind(result, family, text, title or f"redist {family} plan")
