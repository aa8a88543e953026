"""Plumbing shared by the family modules: dicts to JSON text for the entry points, and back.

The extension module ``redist._redist`` takes and returns JSON text, exactly what the command
line reads and prints; every public function of the family modules goes through ``call``.
"""

import json


def dumps(value):
    """JSON text of ``value`` (TypeError when not serialisable, ValueError for NaN or infinity)."""
    return json.dumps(value, allow_nan=False)


def options_text(options):
    """The options object of an entry point; options given as None are left out (the default)."""
    return dumps({name: value for name, value in options.items() if value is not None})


def call(entry, *documents, options=None):
    """``entry`` applied to the JSON text of each document (then of the options object, when
    given), its JSON output as a dict; with the option ``format="text"``, the readable summary
    the command line prints for ``--format text``, as a str."""
    texts = [dumps(document) for document in documents]
    if options is not None:
        texts.append(options_text(options))
    output = entry(*texts)
    if options is not None and options.get("format") == "text":
        return output
    return json.loads(output)
