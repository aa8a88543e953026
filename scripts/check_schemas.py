#!/usr/bin/env python3
"""Checks the JSON Schemas of docs/schemas/ against redist itself (docs/schemas/README.md).

1. Every schema is a valid draft 2020-12 schema with a title and a description, its references
   resolve, and a definition that several schemas share (`count`, `ring_schedule`, ...) is the
   same in all of them.
2. Every bundled document (data/, the transcripts' files, apps/redist-mpi/testdata/, the fuzz
   seeds that are documents) is valid against the schema of its kind; the few bundled documents
   that redist refuses on purpose are refused by their schema too.
3. Every command of every family runs on bundled examples and what it prints is valid against the
   schema of its output, with or without a top-level "seconds" (the time the command took): every
   planning algorithm, every send mode, solver and policy at least once; every plan is also given
   to `check`, whose verdict is checked in turn.
4. Both refuse the same mistakes: a bundled document of each input kind, with an unknown
   member added to one of its objects or one member's value replaced by one of another type, is
   refused by the schema and by redist (exit 2); with a top-level "$schema" it is accepted by
   both. A few hand-written mistakes (cost_prev on a unidirectional ring, 5.0 for a count, ...)
   too.

Integers are checked as redist reads them: a JSON number with a fraction or an exponent (5.0, 1e3)
is not an integer here, although a standard validator accepts 5.0 where a schema says "integer".

Usage: check_schemas.py REDIST SOURCE_DIR
Needs the jsonschema module (Debian: python3-jsonschema, installed by scripts/install-deps.sh).
"""
import concurrent.futures
import copy
import json
import pathlib
import subprocess
import sys
import tempfile

try:
    import jsonschema
    from jsonschema import Draft202012Validator, validators
except ImportError:
    print("check_schemas.py needs the Python module jsonschema (Debian 12: python3-jsonschema); "
          "run scripts/install-deps.sh", file=sys.stderr)
    sys.exit(2)

REDIST = None  # the program under test, set by main()
SOURCE = None  # the checkout
FAILURES = []


def fail(what, why):
    FAILURES.append(f"{what}: {why}")


# ---------------------------------------------------------------------------------------------
# Reading documents and schemas


def strict_object(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse(text):
    """A JSON document as redist reads it: no duplicate keys, no NaN or Infinity."""
    return json.loads(text, object_pairs_hook=strict_object, parse_constant=refuse_constant)


def redist_integer(checker, instance):
    return isinstance(instance, int) and not isinstance(instance, bool)


StrictValidator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", redist_integer))


def load_schemas():
    """{name: validator} for docs/schemas/NAME.schema.json, after checking the schemas."""
    schemas = {}
    for path in sorted((SOURCE / "docs/schemas").glob("*.schema.json")):
        name = path.name[: -len(".schema.json")]
        schema = parse(path.read_text())
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            fail(path.name, f"not a valid schema: {e.message}")
            continue
        if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            fail(path.name, "does not declare draft 2020-12")
        for key in ("title", "description"):
            if not schema.get(key):
                fail(path.name, f"has no {key}")
        check_references(path.name, schema)
        schemas[name] = schema
    check_shared_definitions(schemas)
    return {name: StrictValidator(schema) for name, schema in schemas.items()}


def references(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref":
                yield item
            else:
                yield from references(item)
    elif isinstance(value, list):
        for item in value:
            yield from references(item)


def check_references(file, schema):
    """Every schema stands alone: each $ref names one of its own definitions, each used."""
    definitions = schema.get("$defs", {})
    used = set()
    for target in references(schema):
        name = target.removeprefix("#/$defs/")
        if target == name or name not in definitions:
            fail(file, f"$ref {target} does not name one of its definitions")
        used.add(name)
    for name in sorted(set(definitions) - used):
        fail(file, f"definition {name} is not used")


def check_shared_definitions(schemas):
    first = {}
    for name, schema in schemas.items():
        for key, definition in schema.get("$defs", {}).items():
            if key not in first:
                first[key] = (name, definition)
            elif first[key][1] != definition:
                fail(f"{name}.schema.json", f"definition {key} differs from the one of "
                     f"{first[key][0]}.schema.json")


def errors(schemas, schema, document):
    """The objections of schemas[schema] to the document, one line each (none: valid)."""
    validator = schemas[schema]
    found = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}"
            for e in found]


# ---------------------------------------------------------------------------------------------
# 2. Bundled documents

# Instances are told apart by their one top-level member, the other documents by their members.
INSTANCE_SCHEMAS = {"ring": "ring-instance", "lau": "lau-instance", "dlt": "dlt-instance",
                    "cluster": "slicering-cluster", "exchange": "exchange-instance",
                    "platform": "platform", "report": "dropin-report"}


def schema_of(document):
    """The name of the schema of a bundled document, from its members (None: unknown)."""
    if not isinstance(document, dict):
        return None
    keys = set(document)
    inner = next(iter(document.values()), None) if len(keys) == 1 else None
    if not isinstance(inner, dict):
        return output_schema_of(document)
    if keys == {"lau"} and "flows" in inner:
        return "lau-eval-instance"
    if keys == {"star"}:
        return "star-order-instance" if "delta" in inner else "star-instance"
    if keys == {"balance"}:
        speeds = inner.get("speeds")
        return "balance-trace" if speeds and isinstance(speeds[0], list) else "balance-state"
    return INSTANCE_SCHEMAS.get(next(iter(keys)))


def output_schema_of(document):
    if "pieces" in document:
        return "exchange-plan"
    if "old" in document:
        return "exchange-ownership"
    if "alpha" in document and "ring" in document:
        return "slicering-solution"
    if "transfers" in document:
        first = (document["transfers"] or [{}])[0]
        if "dir" in first or "flows" in document:
            return "ring-schedule"
        return "dlt-schedule" if "amount" in first or "solver" in document else "star-schedule"
    if "flows" in document:
        return "lau-plan"
    return None


# (directory, pattern): where the bundled documents are.
BUNDLED = [("data", "**/*.json"), ("apps/redist/transcripts/files", "*.json"),
           ("apps/redist-mpi/testdata", "*.json"), ("fuzz/corpus", "*/*")]
# Bundled documents that redist refuses on purpose, and why.
REFUSED = {"apps/redist-mpi/testdata/newline-key-3.json": "a key with a newline (error tests)"}
# Seeds of the structured fuzzers: bytes that drive a generator, not documents.
NOT_DOCUMENTS = ("_plans/",)


def bundled_files():
    for directory, pattern in BUNDLED:
        for path in sorted((SOURCE / directory).glob(pattern)):
            relative = path.relative_to(SOURCE).as_posix()
            if path.is_file() and not any(part in relative for part in NOT_DOCUMENTS):
                yield relative, path


def check_bundled(schemas):
    """Validates every bundled document; returns {schema: [(file, document)]} of those read."""
    found = {}
    for relative, path in bundled_files():
        texts = path.read_bytes().split(b"\0")  # a `check` fuzz seed: instance NUL output
        for k, raw in enumerate(texts):
            what = relative + (f" (document {k + 1} of {len(texts)})" if len(texts) > 1 else "")
            try:
                document = parse(raw.decode())
            except (ValueError, UnicodeDecodeError) as e:
                fail(what, f"not a JSON document ({e})")
                continue
            schema = schema_of(document)
            if schema is None:
                fail(what, "of no known kind: classify it in check_schemas.py")
                continue
            problems = errors(schemas, schema, document)
            if relative in REFUSED:
                if not problems:
                    fail(what, f"refused by redist ({REFUSED[relative]}) but valid against "
                         f"{schema}")
            elif problems:
                fail(what, f"invalid against {schema}: {problems[0]}")
            else:
                found.setdefault(schema, []).append((relative, document))
    return found


# ---------------------------------------------------------------------------------------------
# Running redist


def run(arguments, stdin=None):
    """(exit code, standard output, standard error) of redist with these arguments."""
    done = subprocess.run([str(REDIST)] + arguments, input=stdin, capture_output=True,
                          text=True, cwd=SOURCE, timeout=120)
    return done.returncode, done.stdout, done.stderr


def run_all(calls):
    """run() over many calls, a few at a time (most of the time is process start-up)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda call: run(*call), calls))


# ---------------------------------------------------------------------------------------------
# 3. What every command prints

E = "data/examples/"
RING_EXAMPLES = [E + f + ".json" for f in ("above-system6", "demo-ring",
                                           "homogeneous-bidirectional", "relay", "spec-example",
                                           "unidirectional")]
EXCHANGE_EXAMPLES = [f"data/exchange/{f}.json" for f in (
    "backbone-6", "block-cyclic-24", "block-cyclic-3-4", "latency-cut", "preemption-pays",
    "skewed-8")]
SLICERING_EXAMPLES = [f"data/slicering/{f}.json" for f in ("small", "lyon", "strasbourg")]
BALANCE_POLICIES = ["never", "at:20,40", "every:10", "threshold:1.2/window:5/cooldown:10",
                    "cost-benefit", "period-rule", "stable-horizon", "replay",
                    "hedged-replay", "oracle"]


def plans():
    """(family, instance, extra arguments) of every `plan` run: each algorithm, mode and solver
    at least once, and each bundled instance with the defaults."""
    out = [("ring", f, []) for f in RING_EXAMPLES]
    out += [("ring", E + "unidirectional.json", ["-a", "unidirectional"]),
            ("ring", E + "homogeneous-bidirectional.json", ["-a", "bidirectional-homogeneous"]),
            ("ring", E + "demo-ring.json", ["-a", "light"]),
            ("ring", E + "demo-ring.json", ["-a", "light-enforced", "--solver", "lp"]),
            ("ring", E + "above-system6.json", ["-a", "heuristic"]),
            ("ring", E + "above-system6.json", ["-a", "exact"])]
    out += [("lau", E + "lau-ring.json", ["-a", a, "--mode", m])
            for a in ("optimal", "linear", "traffic", "optimal-window") for m in ("single", "multi")]
    out += [("star", E + "star-platform.json", ["-a", a])
            for a in ("bba", "mbbsa", "mbbsa-lazy", "rbsa", "exact", "best")]
    out += [("star", E + "star-trace.json", [])]
    out += [("dlt", E + "dlt-switch.json", ["--solver", s]) for s in ("fast", "lp")]
    out += [("slicering", "data/slicering/small.json", ["-a", a])
            for a in ("greedy", "tsp", "exact", "auto")]
    out += [("slicering", "data/slicering/small.json", ["-a", "exact", "--q", "2"])]
    out += [("slicering", f, []) for f in SLICERING_EXAMPLES[1:]]
    out += [("exchange", f, []) for f in EXCHANGE_EXAMPLES]
    out += [("exchange", "data/exchange/preemption-pays.json", ["-a", a])
            for a in ("preemptive", "whole", "busiest-first", "exact", "ggp", "oggp", "steps",
                      "min-steps", "caterpillar")]
    return out


PLAN_SCHEMAS = {"ring": "ring-schedule", "lau": "lau-plan", "star": "star-schedule",
                "dlt": "dlt-schedule", "slicering": "slicering-solution",
                "exchange": "exchange-plan"}


def reports():
    """(arguments, stdin, schema) of the commands other than plan and check."""
    mpi = sorted((SOURCE / "apps/redist-mpi/testdata").glob("*.json"))
    rings = RING_EXAMPLES + [p.relative_to(SOURCE).as_posix() for p in mpi
                             if p.relative_to(SOURCE).as_posix() not in REFUSED]
    out = [(["ring", "bound", f], None, "ring-bound") for f in rings]
    out += [(["lau", "eval", f], None, "lau-eval") for f in
            ["apps/redist/transcripts/files/lau-ring-flows.json"] +
            sorted(p.relative_to(SOURCE).as_posix()
                   for p in (SOURCE / "fuzz/corpus/lau_eval").glob("*.json"))]
    out += [(["star", "order", f], None, "star-schedule") for f in
            ("apps/redist/transcripts/files/star-order.json", "fuzz/corpus/star_order/small.json")]
    out += [(["balance", "advise", f], None, "balance-advice") for f in
            ("data/balance/advise-8.json", "fuzz/corpus/balance_instance/advise.json")]
    out += [(["balance", "simulate", "data/balance/rrv04-8.json", "--policy", p], None,
             "balance-simulation") for p in BALANCE_POLICIES]
    out += [(["balance", "simulate", "fuzz/corpus/balance_instance/trace.json", "--policy",
              "cost-benefit"], None, "balance-simulation")]
    out += [(["exchange", "bound", f], None, "exchange-bound") for f in EXCHANGE_EXAMPLES]
    out += [(["exchange", "block-cyclic", "--elements", "1000", "--element-bytes", "8",
              "--from-block", "4", "--from-procs", "3", "--to-block", "5", "--to-procs", "4"],
             None, "exchange-instance"),
            (["exchange", "migration", "data/exchange/ownership/ranges-4.json"], None,
             "exchange-instance"),
            (["exchange", "migration", "-", "--nodes", "4"],
             '{"old": [0, 0, 1, 1, 2, 2], "new": [2, 0, 0, 1, 1, 2], "item_bytes": 8}',
             "exchange-instance")]
    return out


def check_output(schemas, what, result, schema, expected_code=0):
    """The command exited as expected and printed one document valid against `schema`."""
    code, stdout, stderr = result
    if code != expected_code:
        fail(what, f"exit {code} (expected {expected_code}): {stderr.strip()[:300]}")
        return None
    try:
        document = parse(stdout)
    except ValueError as e:
        fail(what, f"printed no JSON document ({e})")
        return None
    problems = errors(schemas, schema, document)
    if problems:
        fail(what, f"output invalid against {schema}: {problems[0]}")
    # Every output may also state the time its command took.
    elif errors(schemas, schema, dict(document, seconds=0.25)):
        fail(what, f"{schema} does not allow a top-level \"seconds\"")
    return document


def check_commands(schemas):
    """Runs the commands of every family; returns how many outputs were validated."""
    plan_calls = plans()
    results = run_all([([family, "plan", f] + extra, None) for family, f, extra in plan_calls])
    checks = []
    for (family, f, extra), result in zip(plan_calls, results):
        what = " ".join(["redist", family, "plan", f] + extra)
        if check_output(schemas, what, result, PLAN_SCHEMAS[family]) is not None:
            checks.append((family, f, result[1], what))
    count = len(checks)
    # Each plan goes to `check` (valid: exit 0); a wrong claim makes the verdict invalid (exit 1).
    calls = [([family, "check", f, "-"], plan) for family, f, plan, _ in checks]
    calls.append((["ring", "check", E + "demo-ring.json",
                   "apps/redist/transcripts/files/demo-ring-schedule-wrong-makespan.json"], None))
    for k, result in enumerate(run_all(calls)):
        invalid = k == len(checks)
        what = "redist " + " ".join(calls[k][0]) + ("" if invalid else f" (of {checks[k][3]})")
        count += check_output(schemas, what, result, "check-result", 1 if invalid else 0) is not None
    calls = reports()
    for (arguments, stdin, schema), result in zip(calls, run_all([(a, s) for a, s, _ in calls])):
        count += check_output(schemas, "redist " + " ".join(arguments), result, schema) is not None
    return count + check_experiments(schemas)


def check_experiments(schemas):
    """The summary and the tables of the experiments that run in well under a second."""
    count = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in ("lau", "star", "slicering"):
            out = pathlib.Path(scratch) / name
            arguments = ["experiment", name, "--instances", "1", "--format", "json", "--out",
                         str(out)]
            summary = check_output(schemas, "redist " + " ".join(arguments[:4]), run(arguments),
                                   "experiment-summary")
            count += summary is not None
            for table in sorted(out.glob("*.json")):
                problems = errors(schemas, "experiment-table", parse(table.read_text()))
                if problems:
                    fail(f"experiment {name}: {table.name}", f"invalid: {problems[0]}")
                count += 1
    return count


# ---------------------------------------------------------------------------------------------
# 4. The same mistakes refused by both

# How redist reads a document of each input kind: arguments with the document on standard input.
# The platform file is read by the MPI programs, not by `redist`: its schema is checked against
# the bundled platforms (part 2), its reader's refusals by src/redist/io/platform_json_test.cpp.
READERS = {
    "ring-instance": ["ring", "bound", "-"],
    "ring-schedule": ["ring", "check", E + "demo-ring.json", "-"],
    "lau-instance": ["lau", "plan", "-"],
    "lau-eval-instance": ["lau", "eval", "-"],
    "lau-plan": ["lau", "check", E + "lau-ring.json", "-"],
    "star-instance": ["star", "plan", "-a", "bba", "-"],
    "star-order-instance": ["star", "order", "-"],
    "star-schedule": ["star", "check", E + "star-platform.json", "-"],
    "dlt-instance": ["dlt", "plan", "-"],
    "dlt-schedule": ["dlt", "check", E + "dlt-switch.json", "-"],
    "slicering-cluster": ["slicering", "plan", "-a", "greedy", "-"],
    "slicering-solution": ["slicering", "check", "data/slicering/small.json", "-"],
    "balance-state": ["balance", "advise", "-"],
    "balance-trace": ["balance", "simulate", "--policy", "never", "-"],
    "exchange-instance": ["exchange", "bound", "-"],
    "exchange-plan": ["exchange", "check", "data/exchange/skewed-8.json", "-"],
    "exchange-ownership": ["exchange", "migration", "-"],
}
# The document of each kind that is mutated: one that its READERS command accepts.
MUTATED = {
    "ring-instance": E + "demo-ring.json",
    "ring-schedule": "apps/redist/transcripts/files/demo-ring-schedule.json",
    "lau-instance": E + "lau-ring.json",
    "lau-eval-instance": "apps/redist/transcripts/files/lau-ring-flows.json",
    "lau-plan": "apps/redist/transcripts/files/lau-ring-plan.json",
    "star-instance": E + "star-platform.json",
    "star-order-instance": "apps/redist/transcripts/files/star-order.json",
    "star-schedule": "apps/redist/transcripts/files/star-platform-schedule.json",
    "dlt-instance": E + "dlt-switch.json",
    "dlt-schedule": "apps/redist/transcripts/files/dlt-switch-schedule.json",
    "slicering-cluster": "data/slicering/small.json",
    "slicering-solution": "apps/redist/transcripts/files/small-solution.json",
    "balance-state": "data/balance/advise-8.json",
    "balance-trace": "fuzz/corpus/balance_instance/trace.json",
    "exchange-instance": "data/exchange/backbone-6.json",
    "exchange-plan": "apps/redist/transcripts/files/skewed-8-plan.json",
    "exchange-ownership": "data/exchange/ownership/ranges-4.json",
}
def objects(document, path=()):
    """(path, object) of every object in the document, first elements of arrays only."""
    if isinstance(document, dict):
        yield path, document
        for key, value in document.items():
            yield from objects(value, path + (key,))
    elif isinstance(document, list) and document:
        yield from objects(document[0], path + (0,))


def at(document, path):
    for step in path:
        document = document[step]
    return document


def mutations(schema, document):
    """(description, mutated document) of the mistakes made in every object of the document."""
    for path, obj in objects(document):
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        mutated = copy.deepcopy(document)
        at(mutated, path)["unknown_member"] = 1
        yield f"{where}.unknown_member added", mutated
        for key, value in obj.items():
            mutated = copy.deepcopy(document)
            at(mutated, path)[key] = "a string" if isinstance(value, dict) else {"an": "object"}
            yield f"{where}.{key} of another type", mutated


# Hand-written mistakes: (schema, description, document) each refused by both.
MISTAKES = [
    ("ring-instance", "cost_prev on a unidirectional ring",
     {"ring": {"loads": [1, 0], "cost_next": 1, "cost_prev": 1}}),
    ("ring-instance", "a bidirectional ring without cost_prev",
     {"ring": {"bidirectional": True, "loads": [1, 0], "cost_next": 1}}),
    ("ring-instance", "both targets and delta",
     {"ring": {"loads": [1, 1], "targets": [1, 1], "delta": [0, 0], "cost_next": 1}}),
    ("ring-instance", "a count written 5.0",
     {"ring": {"loads": [5.0, 1], "cost_next": 1}}),
    ("ring-instance", "one processor", {"ring": {"loads": [1], "cost_next": 1}}),
    ("ring-instance", "a subnormal cost", {"ring": {"loads": [1, 1], "cost_next": 1e-310}}),
    ("ring-instance", "a $schema that is not a string",
     {"$schema": 1, "ring": {"loads": [1, 1], "cost_next": 1}}),
    ("ring-instance", "a $schema inside the instance object",
     {"ring": {"$schema": "x", "loads": [1, 1], "cost_next": 1}}),
    ("lau-instance", "flows in the instance of plan", {"lau": {"loads": [1, 1], "flows": [0, 0]}}),
    ("star-instance", "a negative load", {"star": {"c": [1], "w": [1], "loads": [-1]}}),
    ("dlt-instance", "a zero bandwidth", {"dlt": {"b": [0], "s": [1], "alpha": [1]}}),
    ("slicering-cluster", "no processor", {"cluster": {"w": [], "c": [], "W": 1, "H": 1}}),
    ("balance-trace", "both loads and items",
     {"balance": {"ring": {"cost_next": 1}, "speeds": [[1, 1]], "loads": [1, 1], "items": 2}}),
    ("balance-trace", "no iteration", {"balance": {"ring": {"cost_next": 1}, "speeds": [],
                                                   "items": 2}}),
    ("exchange-instance", "both messages and matrix",
     {"exchange": {"nodes": 2, "messages": [[0, 1, 1]], "matrix": [[0, 1], [0, 0]]}}),
    ("exchange-instance", "a message of 0 bytes", {"exchange": {"nodes": 2,
                                                                "messages": [[0, 1, 0]]}}),
    ("exchange-instance", "a message of four numbers",
     {"exchange": {"nodes": 2, "messages": [[0, 1, 1, 1]]}}),
    ("exchange-instance", "two ports", {"exchange": {"nodes": 2, "messages": [[0, 1, 1]],
                                                     "ports": 2}}),
    ("exchange-ownership", "an owner beyond 999999", {"old": [1000000], "new": [0]}),
    ("ring-schedule", "a run without dir", {"transfers": [{"from": 0, "start": 0, "count": 1}]}),
]


def check_mistakes(schemas, bundled):
    """Runs redist on every mutation and hand-written mistake; returns how many were compared."""
    cases = []
    for schema, file in MUTATED.items():
        document = next((d for f, d in bundled.get(schema, []) if f == file), None)
        if document is None:
            fail(file, f"not among the bundled {schema} documents")
            continue
        cases.append((schema, f"{file} as it is", document, False))
        cases.append((schema, f"{file} with a $schema", dict(
            {"$schema": f"docs/schemas/{schema}.schema.json"}, **document), False))
        cases += [(schema, f"{file}: {d}", m, True) for d, m in mutations(schema, document)]
    cases += [(schema, d, m, True) for schema, d, m in MISTAKES]
    results = run_all([(READERS[s], json.dumps(doc)) for s, _, doc, _ in cases])
    for (schema, what, document, mistake), (code, _, stderr) in zip(cases, results):
        schema_refuses = bool(errors(schemas, schema, document))
        redist_refuses = code == 2
        if schema_refuses != mistake:
            fail(what, f"the schema {'refuses' if schema_refuses else 'accepts'} it")
        if redist_refuses != mistake:
            fail(what, f"redist {'refuses' if redist_refuses else 'accepts'} it (exit {code}"
                 f"{': ' + stderr.strip()[:200] if stderr.strip() else ''})")
    missing = sorted(set(READERS) - set(MUTATED))
    if missing:
        fail("check_schemas.py", f"no document to mutate for {', '.join(missing)}")
    return len(cases)


def main():
    global REDIST, SOURCE
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    REDIST = pathlib.Path(sys.argv[1]).resolve()
    SOURCE = pathlib.Path(sys.argv[2]).resolve()
    schemas = load_schemas()
    bundled = check_bundled(schemas)
    documents = sum(len(v) for v in bundled.values())
    unused = sorted(set(schemas) - set(bundled) - {
        "check-result", "ring-bound", "lau-eval", "balance-advice", "balance-simulation",
        "exchange-bound", "experiment-summary", "experiment-table"})
    for name in unused:
        fail(f"{name}.schema.json", "no bundled document of its kind")
    outputs = check_commands(schemas)
    compared = check_mistakes(schemas, bundled)
    for line in FAILURES:
        print("FAIL", line)
    print(f"check_schemas: {len(schemas)} schemas, {documents} bundled documents, {outputs} "
          f"command outputs, {compared} documents compared with redist's reader; "
          f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
