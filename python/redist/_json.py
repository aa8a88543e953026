"""Plumbing shared by the family modules: documents (dicts, or the paths of JSON files) to JSON
text for the entry points, and their output back to dicts.

The extension module ``redist._redist`` takes and returns JSON text, exactly what the command
line reads and prints; every public function of the family modules goes through
``document_text`` and ``call``.
"""

import json
import math
import os
import re

# A key written after a dot in a JSONPath ($.ring.loads); any other is quoted ($["a b"]), as the
# command line writes them.
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_]{1,64}")


def dumps(value):
    """JSON text of ``value`` (TypeError when not serialisable, ValueError for NaN or infinity)."""
    return json.dumps(value, allow_nan=False)


def _child_path(path, key):
    key = key if isinstance(key, str) else str(key)
    if _PLAIN_KEY.fullmatch(key):
        return f"{path}.{key}"
    shown = key if len(key) <= 64 else key[:64] + "..."
    return f"{path}[{json.dumps(shown, ensure_ascii=False)}]"


_LEAVE = object()  # marks, on the walk's stack, the end of a container's items


def non_finite_path(value, root="$"):
    """The JSONPath of the first NaN or infinity in ``value`` (dicts, lists and tuples walked in
    order, without recursion), as ``(path, number)``; None when every number is finite. A dict or
    list that contains itself is the ValueError json.dumps raises for it (a container met twice
    on one path; shared ones elsewhere are fine)."""
    stack = [(value, root)]
    inside = set()  # the ids of the containers on the current path
    while stack:
        item, path = stack.pop()
        if item is _LEAVE:
            inside.discard(path)
        elif isinstance(item, float):
            if not math.isfinite(item):
                return path, item
        elif isinstance(item, (dict, list, tuple)):
            if id(item) in inside:
                raise ValueError("Circular reference detected")
            inside.add(id(item))
            stack.append((_LEAVE, id(item)))
            if isinstance(item, dict):
                stack.extend(reversed([(v, _child_path(path, k)) for k, v in item.items()]))
            else:
                stack.extend(reversed([(v, f"{path}[{i}]") for i, v in enumerate(item)]))
    return None


def require_finite(value, root="$"):
    """ValueError naming the place of the first NaN or infinity in ``value`` (JSON has
    neither): ``must be a finite number, got nan (at $.ring.cost_next[2])``."""
    found = non_finite_path(value, root)
    if found is not None:
        path, number = found
        raise ValueError(f"must be a finite number, got {number!r} (at {path})")


def is_path(document):
    """Whether ``document`` names a file (a str or an os.PathLike) rather than being one."""
    return isinstance(document, (str, os.PathLike))


def read_document(path):
    """The content of the file ``path`` names, at most the command line's limit of every input
    (``_redist.MAX_DOCUMENT_BYTES``, 1 GiB): ValueError beyond it, read no further (a device that
    never ends, such as /dev/zero, included)."""
    from . import _redist  # pylint: disable=import-outside-toplevel (the extension loads last)

    limit = _redist.MAX_DOCUMENT_BYTES
    with open(path, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"'{os.fspath(path)}' is larger than {limit >> 20} MiB "
                         "(the size limit of every input)")
    return data


def checked_dumps(value, root="$"):
    """``dumps(value)``, with its refusals made precise: a NaN or an infinity is a ValueError
    naming its place (require_finite), a structure that contains itself the ValueError json.dumps
    raises for it (``Circular reference detected``)."""
    try:
        return dumps(value)
    except (ValueError, RecursionError):
        require_finite(value, root)  # without recursion, and stops at a cycle
        raise


def document_text(document):
    """The JSON text of a document, as UTF-8 bytes: the content of the file a str or os.PathLike
    names (as read, at most 1 GiB; FileNotFoundError and the like name the path), or a dict
    written as JSON."""
    if is_path(document):
        return read_document(document)
    return checked_dumps(document).encode()


def options_text(options):
    """The options object of an entry point; options given as None are left out (the default).
    A NaN or infinity is a ValueError at the option, spelled as the command line spells it
    (``time_limit`` at ``--time-limit``)."""
    given = {name: value for name, value in options.items() if value is not None}
    for name, value in given.items():
        checked_dumps(value, "--" + name.replace("_", "-"))
    return dumps(given)


def call_texts(entry, texts, options=None):
    """``entry`` applied to the JSON texts (then to the options object, when given), its JSON
    output as a dict; with the option ``format="text"``, the readable summary the command line
    prints for ``--format text``, as a str."""
    texts = list(texts)
    if options is not None:
        texts.append(options_text(options))
    output = entry(*texts)
    if options is not None and options.get("format") == "text":
        return output
    return json.loads(output)


def call(entry, *documents, options=None):
    """``call_texts`` on the documents (dicts or paths)."""
    return call_texts(entry, [document_text(document) for document in documents], options)
