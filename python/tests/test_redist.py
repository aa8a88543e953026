#!/usr/bin/env python3
"""The Python package `redist` against the command line (python/, docs/python.md).

For every family: plans of the bundled examples equal what `redist FAMILY plan` prints, the
planned schedules check valid, options reach the planners, a malformed document raises
ValueError whose message is the command line's `error:` line, and unknown options raise
ValueError. Documents given as paths are read as files; a NaN or an infinity in a dict is
refused at its JSONPath; the pictures (`plan(...).svg()`, `gantt`) are byte for byte the files
`--gantt` writes. The docstring examples of every module run as doctests. Every result states
the seconds spent on it, which differ from run to run: comparisons (Case.assertEqual) leave them
out, once checked to be a number >= 0.

Environment (set by ctest, python/CMakeLists.txt): PYTHONPATH holds BUILD/python; REDIST_CLI is
the command line `redist`; REDIST_DATA_DIR the data/ folder of the sources.
Usage: PYTHONPATH=build/python REDIST_CLI=build/redist python3 python/tests/test_redist.py -v
"""

import concurrent.futures
import copy
import doctest
import json
import os
import pathlib
import pickle
import re
import subprocess
import tempfile
import unittest

import redist
from redist import _redist

CLI = os.environ.get("REDIST_CLI")
DATA = pathlib.Path(os.environ.get("REDIST_DATA_DIR",
                                   pathlib.Path(__file__).resolve().parents[2] / "data"))
EXAMPLES = DATA / "examples"
MODULES = [redist.ring, redist.lau, redist.star, redist.dlt, redist.exchange, redist.slicering,
           redist.balance]

# Instances of the families without a bundled example in data/.
LAU = {"lau": {"loads": [9, 11, 10, 0, 4, 0, 6, 1, 4, 5]}}
LAU_TARGETS = {"lau": {"loads": [7, 0, 2, 3], "targets": [3, 3, 3, 3]}}
DLT = {"dlt": {"b": [1, 100, 2], "s": [1, 1, 3], "alpha": [10, 0, 1.5]}}


def run_cli(*args):
    """The command line's CompletedProcess; dicts and lists among the arguments are written to
    files first, and their paths passed instead."""
    if not CLI:
        raise unittest.SkipTest("REDIST_CLI is not set: no command line to compare with")
    with tempfile.TemporaryDirectory() as tmp:
        words = []
        for number, arg in enumerate(args):
            if isinstance(arg, (dict, list)):
                path = pathlib.Path(tmp) / f"document{number}.json"
                path.write_text(json.dumps(arg))
                arg = path
            words.append(str(arg))
        return subprocess.run([CLI, *words], capture_output=True, text=True, timeout=600,
                              check=False)


def cli_json(*args, code=0):
    """What the command line prints, as a dict (its exit code must be `code`)."""
    result = run_cli(*args)
    if result.returncode != code:
        raise AssertionError(f"redist {' '.join(map(str, args))}: exit {result.returncode}, "
                             f"expected {code}: {result.stderr}")
    return json.loads(result.stdout)


def cli_error(*args):
    """The command line's `error:` line without its prefix (the command must exit 2)."""
    result = run_cli(*args)
    if result.returncode != 2 or not result.stderr.startswith("error: "):
        raise AssertionError(f"redist {' '.join(map(str, args))}: exit {result.returncode}, "
                             f"stderr {result.stderr!r}")
    lines = result.stderr.splitlines()
    if len(lines) != 1:
        raise AssertionError(f"expected one error line, got {result.stderr!r}")
    return lines[0][len("error: "):]


def cli_svg(*args):
    """The SVG file the command line writes with `--gantt` (it must exit 0)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "chart.svg"
        result = run_cli(*args, "--gantt", out)
        if result.returncode != 0:
            raise AssertionError(f"redist {' '.join(map(str, args))} --gantt: exit "
                                 f"{result.returncode}: {result.stderr}")
        return out.read_text()


def load(path):
    return json.loads(pathlib.Path(path).read_text())


# The seconds of a result: a JSON document's last member, or a text summary's last line.
_SECONDS_TEXT = re.compile(r'(,\n  "seconds": |\nseconds +)(-?[0-9.e+-]+)(?=\n)')


def timeless(value):
    """`value` without the seconds it states (a result dict, a list of them, or the JSON or text
    output of a command), each of them checked to be a number >= 0 first."""
    if isinstance(value, dict) and "seconds" in value:
        seconds = value["seconds"]
        if not isinstance(seconds, (int, float)) or seconds < 0:
            raise AssertionError(f"seconds is not a number >= 0: {seconds!r}")
        return {key: item for key, item in value.items() if key != "seconds"}
    if isinstance(value, list):
        return [timeless(item) for item in value]
    if isinstance(value, str):
        for match in _SECONDS_TEXT.finditer(value):
            if float(match.group(2)) < 0:
                raise AssertionError(f"negative seconds in {value!r}")
        return _SECONDS_TEXT.sub(r"\1S", value)
    return value


class Case(unittest.TestCase):
    """Assertions shared by the families."""

    maxDiff = None

    def assertEqual(self, first, second, msg=None):  # noqa: N802 (unittest's name)
        """Equal but for the seconds each result states (`timeless`)."""
        super().assertEqual(timeless(first), timeless(second), msg)

    def assert_cli_error(self, call, *cli_args):
        """`call()` raises ValueError with the command line's error text for `cli_args`."""
        expected = cli_error(*cli_args)
        with self.assertRaises(ValueError) as caught:
            call()
        self.assertIs(type(caught.exception), ValueError)
        self.assertEqual(str(caught.exception), expected)

    def assert_value_error(self, call, message):
        with self.assertRaises(ValueError) as caught:
            call()
        self.assertEqual(str(caught.exception), message)

    def assert_checks(self, module, instance, schedule, makespan=None):
        """The schedule checks valid, at its makespan (`makespan`, or the schedule's), as on the
        command line."""
        verdict = module.check(instance, schedule)
        self.assertIs(verdict["valid"], True, verdict)
        self.assertAlmostEqual(verdict["makespan"],
                               schedule["makespan"] if makespan is None else makespan)
        self.assertEqual(verdict, cli_json(module.__name__.split(".")[1], "check", instance,
                                           schedule))


class PackageTest(Case):
    def test_modules_and_functions(self):
        expected = {
            "ring": ["plan", "check", "bound", "gantt"],
            "lau": ["plan", "check", "eval", "gantt"],
            "star": ["plan", "check", "order", "gantt"],
            "dlt": ["plan", "check", "gantt"],
            "exchange": ["plan", "check", "bound", "gantt", "block_cyclic", "migration"],
            "slicering": ["plan", "check", "gantt"],
            "balance": ["plan", "advise", "simulate", "gantt"],
        }
        # The families of the C++ list and balance; a family without a module of its own has
        # plan, check and gantt (test_a_family_without_its_own_module...).
        self.assertEqual(sorted(redist.__all__), sorted([*_redist.FAMILIES, "balance"]))
        for name, functions in expected.items():
            module = getattr(redist, name)
            self.assertEqual(module.__all__, functions)
            self.assertTrue(module.__doc__)
            for function in functions:
                doc = getattr(module, function).__doc__
                self.assertIn(">>>", doc, f"{name}.{function} has no example")
                self.assertIn("Raises ValueError", doc, f"{name}.{function}")
        self.assertFalse(hasattr(redist.balance, "check"))

    def test_every_family_of_the_list_has_its_module(self):
        """The planning families of the C++ list (redist/api/families.hpp) each have a module of
        the package with plan, check and gantt, and the extension's plan and check."""
        self.assertIsInstance(_redist.FAMILIES, tuple)
        self.assertIn("ring", _redist.FAMILIES)
        for name in _redist.FAMILIES:
            self.assertIn(name, redist.__all__, f"the family {name} has no module")
            module = getattr(redist, name)
            for function in ("plan", "check", "gantt"):
                self.assertIn(function, module.__all__, f"{name} has no {function}")
            self.assertTrue(callable(getattr(_redist, name).plan))
            self.assertTrue(callable(getattr(_redist, name).check))

    def test_a_family_without_its_own_module_gets_plan_check_and_gantt(self):
        """A family of the list without a module file gets the generic one (redist/_family.py):
        the same plan, check and gantt as its own module, on dicts."""
        generic = redist._family.module("dlt")
        self.assertEqual(generic.__name__, "redist.dlt")
        self.assertEqual(generic.__all__, ["plan", "check", "gantt"])
        plan = generic.plan(DLT)
        self.assertEqual(plan, redist.dlt.plan(DLT))
        self.assertIsInstance(plan, redist.Plan)
        self.assertEqual(generic.check(DLT, plan), redist.dlt.check(DLT, plan) | {
            "seconds": generic.check(DLT, plan)["seconds"]})
        self.assertEqual(generic.gantt(DLT, plan), redist.dlt.gantt(DLT, plan))
        self.assertEqual(plan.svg(), redist.dlt.plan(DLT).svg())
        self.assertEqual(generic.plan(DLT, format="text"), redist.dlt.plan(DLT, format="text"))
        with self.assertRaisesRegex(ValueError, "solver"):
            generic.plan(DLT, solver="simplex")
        self.assertIn("dlt check", generic.gantt.__doc__)

    def test_version(self):
        if not CLI:
            self.skipTest("REDIST_CLI is not set")
        version = subprocess.run([CLI, "--version"], capture_output=True, text=True, check=True)
        self.assertEqual(version.stdout.split(), ["redist", redist.__version__])

    def test_native_module_prints_what_the_command_line_prints(self):
        # Text in, text out: byte for byte the command line's standard output.
        ring = EXAMPLES / "spec-example.json"
        cases = [
            (_redist.ring.plan, ring, '{"algorithm": "exact"}', ["--algorithm", "exact"]),
            (_redist.ring.bound, ring, None, []),
            (_redist.star.plan, EXAMPLES / "star-trace.json", "{}", []),
            (_redist.slicering.plan, DATA / "slicering" / "small.json", '{"q": 2}', ["--q", "2"]),
            (_redist.balance.advise, DATA / "balance" / "advise-8.json", "{}", []),
            (_redist.balance.simulate, DATA / "balance" / "rrv04-8.json", '{"policy": "replay"}',
             ["--policy", "replay"]),
        ]
        for entry, path, options, flags in cases:
            family, command = entry.__module__.split(".")[-1], entry.__name__
            with self.subTest(command=f"{family} {command}"):
                arguments = [path.read_text()] + ([] if options is None else [options])
                text = entry(*arguments)
                self.assertIsInstance(text, str)
                self.assertEqual(text, run_cli(family, command, path, *flags).stdout)
        for entry, family, instance in ((_redist.lau.plan, "lau", LAU),
                                        (_redist.dlt.plan, "dlt", DLT)):
            with self.subTest(command=f"{family} plan"):
                self.assertEqual(entry(json.dumps(instance)),
                                 run_cli(family, "plan", instance).stdout)

    def test_documents_must_be_json(self):
        with self.assertRaises(TypeError):
            redist.ring.plan({"ring": {"loads": {1, 2}}})
        self.assert_value_error(lambda: redist.ring.plan({"ring": {"loads": [float("nan")]}}),
                                "must be a finite number, got nan (at $.ring.loads[0])")

    def test_a_nul_byte_is_refused_not_an_end(self):
        with self.assertRaisesRegex(ValueError, "NUL byte at offset 25"):
            _redist.lau.plan('{"lau":{"loads":[6,0,0]}}\0{"x":', "{}")

    def test_a_non_object_document_is_an_input_error(self):
        self.assert_cli_error(lambda: redist.ring.plan([1, 2]), "ring", "plan", [1, 2])

    def test_threads(self):
        # The entry points run without the GIL: plans from several threads at once are those
        # planned one after the other.
        jobs = [(redist.ring.plan, load(path), {"solver": solver})
                for path in RingTest.EXAMPLES for solver in ("fast", "lp")]
        jobs += [(redist.dlt.plan, DLT, {"solver": "lp"}),
                 (redist.slicering.plan, load(DATA / "slicering" / "lyon.json"), {})]
        expected = [plan(instance, **options) for plan, instance, options in jobs]
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            for _ in range(3):
                futures = [pool.submit(plan, instance, **options)
                           for plan, instance, options in jobs]
                self.assertEqual([f.result() for f in futures], expected)

    def test_every_result_states_its_seconds(self):
        ring = load(EXAMPLES / "spec-example.json")
        schedule = redist.ring.plan(ring)
        results = [schedule, redist.ring.check(ring, schedule), redist.ring.bound(ring),
                   redist.lau.plan(LAU), redist.dlt.plan(DLT)]
        for result in results:
            self.assertIsInstance(result["seconds"], float)
            self.assertGreaterEqual(result["seconds"], 0)
        text = redist.ring.plan(ring, format="text")
        self.assertRegex(text.splitlines()[-1], r"^seconds +[0-9.e-]+$")

    def test_time_limit_returns_the_best_plan_found(self):
        # A limit that has passed at the search's first look at the clock: exact's best schedule
        # so far, valid, with the System 6 bound and a note; the same as the command line's.
        ring = load(EXAMPLES / "above-system6.json")
        stopped = redist.ring.plan(ring, algorithm="exact", time_limit=1e-9)
        self.assert_checks(redist.ring, ring, stopped)
        self.assertEqual(stopped, cli_json("ring", "plan", ring, "-a", "exact", "--time-limit",
                                           "1e-9"))
        if not stopped["optimal"]:
            self.assertTrue(any(note.startswith("time limit of 1e-09 s reached")
                                for note in stopped["notes"]), stopped["notes"])
            self.assertEqual(stopped["status"], "time limit")
        else:
            self.assertEqual(stopped["status"], "optimal")
        self.assertEqual(redist.ring.plan(ring, algorithm="exact", time_limit=60)["makespan"],
                         22.0)

    def test_plans_state_status_lower_bound_and_gap(self):
        # Every family's plan states its status; lower_bound and gap are None when no bound is
        # known (SliceRing's greedy), and the document then has neither member.
        ring = load(EXAMPLES / "demo-ring.json")
        plan = redist.ring.plan(ring)
        self.assertIsInstance(plan, redist.Plan)
        self.assertEqual((plan["status"], plan["gap"]), ("optimal", 0))
        self.assertEqual(plan["lower_bound"], plan["makespan"])
        cluster = {"cluster": {"w": [1, 2, 4], "c": [[0, 1, 1], [1, 0, 1], [1, 1, 0]],
                               "W": 100, "H": 1}}
        greedy = redist.slicering.plan(cluster, algorithm="greedy")
        self.assertEqual(greedy["status"], "feasible")
        self.assertIsNone(greedy["lower_bound"])
        self.assertIsNone(greedy["gap"])
        self.assertNotIn("lower_bound", greedy)
        self.assertTrue(redist.slicering.check(cluster, greedy)["valid"])
        with self.assertRaises(KeyError):
            greedy["no such member"]
        for plan in (redist.star.plan({"star": {"c": [1, 1], "w": [1, 1], "loads": [4, 0]}}),
                     redist.dlt.plan({"dlt": {"b": [1, 1], "s": [1, 1], "alpha": [2, 0]}}),
                     redist.lau.plan({"lau": {"loads": [6, 0, 0]}}),
                     redist.exchange.plan({"exchange": {"nodes": 2, "messages": [[0, 1, 8]]}})):
            self.assertIn(plan["status"], ("optimal", "feasible"))
            self.assertEqual(plan["status"] == "optimal", plan["optimal"])

    def test_mistyped_names_get_the_command_lines_suggestion(self):
        ring = str(EXAMPLES / "demo-ring.json")
        exchange = str(DATA / "exchange" / "skewed-8.json")
        self.assert_cli_error(lambda: redist.ring.plan(ring, algorithm="ligth"),
                              "ring", "plan", "-a", "ligth", ring)
        self.assert_cli_error(lambda: redist.exchange.plan(exchange, algorithm="wholee"),
                              "exchange", "plan", "-a", "wholee", exchange)
        with self.assertRaisesRegex(ValueError, "did you mean 'mbbsa'"):
            redist.star.plan(str(EXAMPLES / "star-platform.json"), algorithm="mbsa")

    def test_none_options_keep_their_default(self):
        instance = load(EXAMPLES / "spec-example.json")
        self.assertEqual(redist.ring.plan(instance, algorithm=None), redist.ring.plan(instance))


class RingTest(Case):
    EXAMPLES = sorted(p for p in EXAMPLES.glob("*.json") if "ring" in load(p))

    def test_text_summary_is_the_command_lines(self):
        instance = load(EXAMPLES / "demo-ring.json")
        text = redist.ring.plan(instance, format="text")
        self.assertIsInstance(text, str)
        self.assertEqual(text, run_cli("ring", "plan", instance, "--format", "text").stdout)
        self.assertIn("\nvalidator   valid\n", text)

    def test_bundled_examples(self):
        self.assertGreaterEqual(len(self.EXAMPLES), 5)
        for path in self.EXAMPLES:
            with self.subTest(example=path.name):
                instance = load(path)
                schedule = redist.ring.plan(instance)
                self.assertEqual(schedule, cli_json("ring", "plan", path))
                self.assert_checks(redist.ring, instance, schedule)

    def test_options(self):
        path = EXAMPLES / "spec-example.json"
        instance = load(path)
        exact = redist.ring.plan(instance, algorithm="exact")
        self.assertEqual(exact, cli_json("ring", "plan", path, "--algorithm", "exact"))
        self.assertEqual(exact["algorithm"], "exact")
        self.assert_checks(redist.ring, instance, exact)
        lp = redist.ring.plan(instance, algorithm="exact", solver="lp")
        self.assertEqual(lp, cli_json("ring", "plan", path, "--algorithm", "exact", "--solver",
                                      "lp"))

    def test_bound(self):
        path = EXAMPLES / "demo-ring.json"
        bound = redist.ring.bound(load(path))
        self.assertEqual(bound, cli_json("ring", "bound", path))
        self.assertLessEqual(bound["lower_bound"], redist.ring.plan(load(path))["makespan"])

    def test_invalid_schedule(self):
        instance = load(EXAMPLES / "spec-example.json")
        schedule = redist.ring.plan(instance)
        schedule["makespan"] /= 2
        verdict = redist.ring.check(instance, schedule)
        self.assertIs(verdict["valid"], False)
        self.assertEqual(verdict, cli_json("ring", "check", instance, schedule, code=1))

    def test_errors(self):
        bad = load(EXAMPLES / "spec-example.json")
        bad["ring"]["loads"][2] = -3
        self.assert_cli_error(lambda: redist.ring.plan(bad), "ring", "plan", bad)
        self.assert_value_error(lambda: redist.ring.plan(bad),
                                "load must be >= 0; loads: the items each processor holds before the "
                                "redistribution (at $.ring.loads[2])")
        self.assert_cli_error(lambda: redist.ring.bound(bad), "ring", "bound", bad)
        good = load(EXAMPLES / "spec-example.json")
        self.assert_cli_error(lambda: redist.ring.check(good, {"transfers": 3}), "ring", "check",
                              good, {"transfers": 3})
        self.assert_cli_error(lambda: redist.ring.plan(good, algorithm="nope"), "ring", "plan",
                              good, "--algorithm", "nope")
        self.assert_cli_error(lambda: redist.ring.plan(good, solver="simplex"), "ring", "plan",
                              good, "--solver", "simplex")
        self.assert_value_error(lambda: redist.ring.plan(good, algo="exact"),
                                "unknown option (known: algorithm, solver, time_limit, format) "
                                "(at --algo)")
        for bad_limit, why in ((0, "0"), (-1, "-1")):
            self.assert_value_error(lambda: redist.ring.plan(good, time_limit=bad_limit),
                                    "the time limit must be a finite number of seconds > 0, got "
                                    f"{why} (at --time-limit)")
        self.assert_value_error(lambda: redist.ring.plan(good, time_limit="1"),
                                "must be a number (at --time-limit)")
        # Spelled as the command line spells it for a NaN too (it said --time_limit).
        self.assert_value_error(lambda: redist.ring.plan(good, time_limit=float("nan")),
                                "must be a finite number, got nan (at --time-limit)")
        self.assert_value_error(lambda: redist.ring.plan(good, algorithm=3),
                                "must be a string (at --algorithm)")

    def test_a_document_that_contains_itself_is_refused_as_json_dumps_refuses_it(self):
        # The scan for NaN used to walk the cycle forever, in every family.
        looped = {}
        looped["self"] = looped
        for family in (redist.ring, redist.star, redist.exchange, redist.lau):
            with self.assertRaisesRegex(ValueError, "Circular reference detected"):
                family.plan(looped)
        listed = [1.0]
        listed.append(listed)
        with self.assertRaisesRegex(ValueError, "Circular reference detected"):
            redist.exchange.plan({"exchange": {"nodes": 2, "messages": listed}})

    def test_a_path_is_read_up_to_the_size_limit_of_every_input(self):
        # /dev/zero used to be read until the kernel stopped the process.
        self.assertEqual(_redist.MAX_DOCUMENT_BYTES, 1 << 30)
        with self.assertRaisesRegex(ValueError, "'/dev/zero' is larger than 1024 MiB "
                                    r"\(the size limit of every input\)"):
            redist.exchange.plan("/dev/zero")


class LauTest(Case):
    def test_plans(self):
        for instance in (LAU, LAU_TARGETS):
            with self.subTest(instance=instance):
                plan = redist.lau.plan(instance)
                self.assertEqual(plan, cli_json("lau", "plan", instance))
                self.assert_checks(redist.lau, instance, plan, plan["t_single"])

    def test_options(self):
        for algorithm in ("linear", "traffic", "optimal-window", "optimal"):
            for mode in ("single", "multi"):
                with self.subTest(algorithm=algorithm, mode=mode):
                    plan = redist.lau.plan(LAU, algorithm=algorithm, mode=mode)
                    self.assertEqual(plan, cli_json("lau", "plan", LAU, "--algorithm", algorithm,
                                                    "--mode", mode))
                    self.assertEqual(plan["mode"], mode)
                    self.assert_checks(redist.lau, LAU, plan, plan["t_" + mode])

    def test_eval(self):
        flows = redist.lau.plan(LAU_TARGETS, algorithm="traffic")["flows"]
        instance = copy.deepcopy(LAU_TARGETS)
        instance["lau"]["flows"] = flows
        self.assertEqual(redist.lau.eval(instance), cli_json("lau", "eval", instance))

    def test_errors(self):
        bad = {"lau": {"loads": [4, -1]}}
        self.assert_cli_error(lambda: redist.lau.plan(bad), "lau", "plan", bad)
        self.assert_cli_error(lambda: redist.lau.eval(LAU), "lau", "eval", LAU)
        self.assert_cli_error(lambda: redist.lau.check(LAU, {"flows": "x"}), "lau", "check",
                              LAU, {"flows": "x"})
        unbalanced = {"flows": [1]}
        self.assertEqual(redist.lau.check(LAU, unbalanced)["valid"], False)
        self.assertEqual(redist.lau.check(LAU, unbalanced),
                         cli_json("lau", "check", LAU, unbalanced, code=1))
        self.assert_cli_error(lambda: redist.lau.plan(LAU, mode="both"), "lau", "plan", LAU,
                              "--mode", "both")
        self.assert_value_error(lambda: redist.lau.plan(LAU, solver="lp"),
                                "unknown option (known: algorithm, mode, format) (at --solver)")


class StarTest(Case):
    PATH = EXAMPLES / "star-trace.json"

    def test_bundled_example(self):
        instance = load(self.PATH)
        schedule = redist.star.plan(instance)
        self.assertEqual(schedule, cli_json("star", "plan", self.PATH))
        self.assert_checks(redist.star, instance, schedule)

    def test_options(self):
        instance = load(self.PATH)
        for algorithm in ("bba", "mbbsa", "mbbsa-lazy", "rbsa", "exact"):
            with self.subTest(algorithm=algorithm):
                schedule = redist.star.plan(instance, algorithm=algorithm)
                self.assertEqual(schedule,
                                 cli_json("star", "plan", self.PATH, "--algorithm", algorithm))
                self.assert_checks(redist.star, instance, schedule)

    def test_order(self):
        instance = {"star": {"c": [1, 3, 2, 1], "delta": [2, -1, 1, -2]}}
        self.assertEqual(redist.star.order(instance), cli_json("star", "order", instance))

    def test_errors(self):
        bad = load(self.PATH)
        bad["star"]["w"][1] = -3
        self.assert_cli_error(lambda: redist.star.plan(bad), "star", "plan", bad)
        order = {"star": {"c": [1, 1], "delta": [1, 1]}}
        self.assert_cli_error(lambda: redist.star.order(order), "star", "order", order)
        good = load(self.PATH)
        self.assert_cli_error(lambda: redist.star.check(good, {}), "star", "check", good, {})
        self.assert_cli_error(lambda: redist.star.plan(good, algorithm="greedy"), "star", "plan",
                              good, "--algorithm", "greedy")
        self.assert_value_error(lambda: redist.star.plan(good, q=2),
                                "unknown option (known: algorithm, time_limit, format) (at --q)")


class DltTest(Case):
    def test_plan(self):
        schedule = redist.dlt.plan(DLT)
        self.assertEqual(schedule, cli_json("dlt", "plan", DLT))
        self.assert_checks(redist.dlt, DLT, schedule)

    def test_options(self):
        schedule = redist.dlt.plan(DLT, solver="lp")
        self.assertEqual(schedule, cli_json("dlt", "plan", DLT, "--solver", "lp"))
        self.assertEqual(schedule["solver"], "lp")
        self.assertAlmostEqual(schedule["makespan"], redist.dlt.plan(DLT)["makespan"])
        self.assert_checks(redist.dlt, DLT, schedule)

    def test_errors(self):
        bad = {"dlt": {"b": [1, 1], "s": [1], "alpha": [1, 1]}}
        self.assert_cli_error(lambda: redist.dlt.plan(bad), "dlt", "plan", bad)
        self.assert_cli_error(lambda: redist.dlt.check(DLT, {"makespan": "x"}), "dlt", "check",
                              DLT, {"makespan": "x"})
        self.assert_cli_error(lambda: redist.dlt.plan(DLT, solver="simplex"), "dlt", "plan", DLT,
                              "--solver", "simplex")
        self.assert_value_error(lambda: redist.dlt.plan(DLT, algorithm="lp7"),
                                "unknown option (known: solver, format) (at --algorithm)")


class ExchangeTest(Case):
    INSTANCES = sorted((DATA / "exchange").glob("*.json"))

    def test_bundled_instances(self):
        self.assertGreaterEqual(len(self.INSTANCES), 3)
        for path in self.INSTANCES:
            instance = load(path)
            for algorithm in ["auto", "whole", "busiest-first", "ggp", "oggp", "steps"]:
                with self.subTest(instance=path.name, algorithm=algorithm):
                    plan = redist.exchange.plan(instance, algorithm=algorithm)
                    self.assertEqual(plan, cli_json("exchange", "plan", path, "-a", algorithm))
                    self.assert_checks(redist.exchange, instance, plan)
            self.assertEqual(redist.exchange.bound(instance), cli_json("exchange", "bound", path))

    def test_block_cyclic_as_the_command_line(self):
        layouts = [(24, 2, 3, 3, 4, 1), (1000, 4, 3, 5, 4, 8), (7, 1, 2, 1, 2, 3),
                   (100, 3, 5, 2, 1, 1)]
        for elements, r, p, s, q, b in layouts:
            with self.subTest(layout=(elements, r, p, s, q, b)):
                instance = redist.exchange.block_cyclic(elements, r, p, s, q, element_bytes=b)
                self.assertEqual(instance, cli_json(
                    "exchange", "block-cyclic", "--elements", elements, "--element-bytes", b,
                    "--from-block", r, "--from-procs", p, "--to-block", s, "--to-procs", q))
        # The instance plans as the command line plans the bundled copy.
        path = DATA / "exchange" / "block-cyclic-24.json"
        planned = redist.exchange.plan(redist.exchange.block_cyclic(24, 2, 3, 3, 4),
                                       algorithm="min-steps")
        self.assertEqual(planned, cli_json("exchange", "plan", path, "-a", "min-steps"))
        self.assert_cli_error(lambda: redist.exchange.block_cyclic(10, 1, 0, 1, 2), "exchange",
                              "block-cyclic", "--elements", "10", "--from-block", "1",
                              "--from-procs", "0", "--to-block", "1", "--to-procs", "2")
        self.assert_cli_error(
            lambda: redist.exchange.block_cyclic(4503599627370496, 1, 4093, 1, 4091), "exchange",
            "block-cyclic", "--elements", "4503599627370496", "--from-block", "1",
            "--from-procs", "4093", "--to-block", "1", "--to-procs", "4091")

    def test_migration_as_the_command_line(self):
        maps = sorted((DATA / "exchange" / "ownership").glob("*.json"))
        self.assertGreaterEqual(len(maps), 1)
        for path in maps:
            with self.subTest(ownership=path.name):
                self.assertEqual(redist.exchange.migration(path),
                                 cli_json("exchange", "migration", path))
                self.assertEqual(redist.exchange.migration(load(path), nodes=9),
                                 cli_json("exchange", "migration", path, "--nodes", "9"))
        inline = {"old": [0, 0, 1, 1], "new": [[0, 1, 0], [1, 4, 2]], "item_bytes": 8}
        self.assertEqual(redist.exchange.migration(inline),
                         cli_json("exchange", "migration", inline))
        for bad in ({"old": [[0, 2]], "new": [1, 0]},
                    {"old": [0, 1], "new": [1, 0], "item_byte": 3}):
            self.assert_cli_error(lambda bad=bad: redist.exchange.migration(bad), "exchange",
                                  "migration", bad)
        self.assert_cli_error(lambda: redist.exchange.migration(inline, nodes=2), "exchange",
                              "migration", inline, "--nodes", "2")

    def test_errors(self):
        bad = {"exchange": {"nodes": 2, "messages": [[0, 0, 5]]}}
        self.assert_cli_error(lambda: redist.exchange.plan(bad), "exchange", "plan", bad)
        good = load(self.INSTANCES[0])
        self.assert_cli_error(lambda: redist.exchange.plan(good, algorithm="greedy"), "exchange",
                              "plan", good, "--algorithm", "greedy")


class SliceringTest(Case):
    PLATFORMS = sorted((DATA / "slicering").glob("*.json"))

    def test_bundled_platforms(self):
        self.assertGreaterEqual(len(self.PLATFORMS), 3)
        for path in self.PLATFORMS:
            with self.subTest(platform=path.name):
                cluster = load(path)
                solution = redist.slicering.plan(cluster)
                self.assertEqual(solution, cli_json("slicering", "plan", path))
                self.assert_checks(redist.slicering, cluster, solution)

    def test_options(self):
        path = DATA / "slicering" / "small.json"
        cluster = load(path)
        for algorithm in ("greedy", "exact"):
            with self.subTest(algorithm=algorithm):
                solution = redist.slicering.plan(cluster, algorithm=algorithm, q=2)
                self.assertEqual(solution, cli_json("slicering", "plan", path, "--algorithm",
                                                    algorithm, "--q", "2"))
                self.assertEqual(len(solution["ring"]), 2)
                self.assert_checks(redist.slicering, cluster, solution)
        tsp = redist.slicering.plan(cluster, algorithm="tsp")
        self.assertEqual(tsp, cli_json("slicering", "plan", path, "--algorithm", "tsp"))
        self.assert_checks(redist.slicering, cluster, tsp)

    def test_errors(self):
        path = DATA / "slicering" / "small.json"
        bad = load(path)
        bad["cluster"]["c"][0][1] = -1
        self.assert_cli_error(lambda: redist.slicering.plan(bad), "slicering", "plan", bad)
        good = load(path)
        self.assert_cli_error(lambda: redist.slicering.check(good, {"ring": [0, 9]}),
                              "slicering", "check", good, {"ring": [0, 9]})
        self.assert_cli_error(lambda: redist.slicering.plan(good, q=0), "slicering", "plan",
                              good, "--q", "0")
        self.assert_value_error(lambda: redist.slicering.plan(good, q="2"),
                                "must be an integer (at --q)")
        self.assert_value_error(lambda: redist.slicering.plan(good, size=2),
                                "unknown option (known: algorithm, q, time_limit, format) "
                                "(at --size)")


class BalanceTest(Case):
    ADVISE = DATA / "balance" / "advise-8.json"
    TRACE = DATA / "balance" / "rrv04-8.json"

    def test_plan_is_the_advice(self):
        instance = load(self.ADVISE)
        advice = redist.balance.plan(instance)
        self.assertEqual(advice, cli_json("balance", "advise", self.ADVISE))
        self.assertEqual(redist.balance.advise(instance), advice)

    def test_advised_schedule_checks(self):
        advice = redist.balance.advise(load(self.ADVISE))
        balance = load(self.ADVISE)["balance"]
        ring = dict(balance["ring"], loads=balance["loads"], targets=advice["targets"])
        self.assertIs(redist.ring.check({"ring": ring}, advice["schedule"])["valid"], True)

    def test_simulate_policies(self):
        trace = load(self.TRACE)
        for policy in ("never", "every:10", "cost-benefit", "replay", "oracle"):
            with self.subTest(policy=policy):
                result = redist.balance.simulate(trace, policy=policy)
                self.assertEqual(result, cli_json("balance", "simulate", self.TRACE, "--policy",
                                                  policy))
        self.assertEqual(redist.balance.simulate(trace, "never")["rebalances"], [])

    def test_errors(self):
        bad = load(self.ADVISE)
        bad["balance"]["speeds"][2] = -1
        self.assert_cli_error(lambda: redist.balance.plan(bad), "balance", "advise", bad)
        self.assert_cli_error(lambda: redist.balance.advise(bad), "balance", "advise", bad)
        trace = load(self.TRACE)
        self.assert_cli_error(lambda: redist.balance.simulate(trace, policy="sometimes"),
                              "balance", "simulate", trace, "--policy", "sometimes")
        bad_trace = load(self.TRACE)
        bad_trace["balance"]["speeds"][1] = [1]
        self.assert_cli_error(lambda: redist.balance.simulate(bad_trace, policy="never"),
                              "balance", "simulate", bad_trace, "--policy", "never")
        self.assert_value_error(lambda: redist.balance.simulate(trace, policy=None),
                                "a policy is required (at --policy)")
        good = load(self.ADVISE)
        self.assert_value_error(lambda: redist.balance.advise(good, horizon=3),
                                "unknown option (known: format) (at --horizon)")
        self.assert_value_error(lambda: redist.balance.simulate(trace, "never", plot="x.svg"),
                                "unknown option (known: policy) (at --plot)")

# A plan of every family with a picture: (module, instance, options).
PICTURED = [
    (redist.ring, EXAMPLES / "demo-ring.json", {}),
    (redist.ring, EXAMPLES / "spec-example.json", {"algorithm": "exact"}),
    (redist.lau, LAU, {"mode": "multi"}),
    (redist.star, EXAMPLES / "star-trace.json", {}),
    (redist.dlt, DLT, {}),
    (redist.exchange, DATA / "exchange" / "block-cyclic-3-4.json", {}),
    (redist.slicering, DATA / "slicering" / "small.json", {}),
]


def family(module):
    return module.__name__.split(".")[1]


def flags(options):
    return [word for name, value in options.items() for word in ("--" + name, str(value))]


class PathTest(Case):
    """A str or an os.PathLike is read as a JSON file wherever a dict is taken."""

    def test_paths_are_files(self):
        for module, instance, options in PICTURED:
            if not isinstance(instance, pathlib.Path):
                continue
            with self.subTest(family=family(module), instance=instance.name):
                plan = module.plan(instance, **options)
                self.assertEqual(plan, module.plan(load(instance), **options))
                self.assertEqual(module.plan(str(instance), **options), plan)
                self.assertEqual(plan, cli_json(family(module), "plan", instance, *flags(options)))
                self.assertIs(module.check(str(instance), plan)["valid"], True)
        self.assertEqual(redist.ring.bound(str(EXAMPLES / "demo-ring.json")),
                         cli_json("ring", "bound", EXAMPLES / "demo-ring.json"))

    def test_schedule_from_a_file(self):
        instance = EXAMPLES / "demo-ring.json"
        with tempfile.TemporaryDirectory() as tmp:
            schedule = pathlib.Path(tmp) / "schedule.json"
            schedule.write_text(json.dumps(redist.ring.plan(instance)))
            self.assertEqual(redist.ring.check(instance, schedule),
                             cli_json("ring", "check", instance, schedule))
            self.assertEqual(redist.ring.gantt(instance, str(schedule)),
                             cli_svg("ring", "check", instance, schedule))

    def test_missing_file_names_its_path(self):
        missing = os.path.join(tempfile.gettempdir(), "redist-no-such-dir", "ring.json")
        for call in (lambda: redist.ring.plan(missing),
                     lambda: redist.ring.check(EXAMPLES / "demo-ring.json", missing),
                     lambda: redist.ring.gantt(pathlib.Path(missing), {}),
                     lambda: redist.balance.simulate(missing, "never")):
            with self.assertRaises(FileNotFoundError) as caught:
                call()
            self.assertEqual(caught.exception.filename, missing)
            self.assertIn(missing, str(caught.exception))
        with self.assertRaises(IsADirectoryError):
            redist.ring.plan(EXAMPLES)

    def test_malformed_file_is_the_command_lines_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            for number, text in enumerate(['{"ring": {"loads": [1, 2}}', "", '{"ring": 3}',
                                           '{"ring": {"loads": [NaN]}}']):
                path = pathlib.Path(tmp) / f"bad{number}.json"
                path.write_text(text)
                with self.subTest(text=text):
                    self.assert_cli_error(lambda: redist.ring.plan(path), "ring", "plan", path)


class NonFiniteTest(Case):
    """A NaN or an infinity in a dict: ValueError at its JSONPath, before any JSON is written."""

    def test_instance(self):
        instance = load(EXAMPLES / "demo-ring.json")
        instance["ring"]["cost_next"][2] = float("nan")
        self.assert_value_error(lambda: redist.ring.plan(instance),
                                "must be a finite number, got nan (at $.ring.cost_next[2])")
        instance["ring"]["cost_next"][2] = 1.0
        instance["ring"]["cost_prev"] = tuple([1.0] * 3 + [float("-inf")])
        self.assert_value_error(lambda: redist.ring.bound(instance),
                                "must be a finite number, got -inf (at $.ring.cost_prev[3])")
        cluster = load(DATA / "slicering" / "small.json")
        cluster["cluster"]["c"][1][0] = float("inf")
        self.assert_value_error(lambda: redist.slicering.plan(cluster),
                                "must be a finite number, got inf (at $.cluster.c[1][0])")

    def test_first_in_document_order_and_quoted_keys(self):
        document = {"dlt": {"b": [1, 2], "odd key": [0, float("nan")], "s": float("nan")}}
        self.assert_value_error(lambda: redist.dlt.plan(document),
                                'must be a finite number, got nan (at $.dlt["odd key"][1])')

    def test_schedule_and_options(self):
        instance = load(EXAMPLES / "demo-ring.json")
        schedule = redist.ring.plan(instance)
        schedule["transfers"][1]["start"] = float("inf")
        message = "must be a finite number, got inf (at $.transfers[1].start)"
        self.assert_value_error(lambda: redist.ring.check(instance, schedule), message)
        self.assert_value_error(lambda: redist.ring.gantt(instance, schedule), message)
        self.assert_value_error(lambda: redist.slicering.plan(DATA / "slicering" / "small.json",
                                                              q=float("nan")),
                                "must be a finite number, got nan (at --q)")

    def test_deep_nesting_is_walked_without_recursion(self):
        document = [float("nan")]
        for _ in range(5000):
            document = [document]
        self.assert_value_error(lambda: redist.ring.plan(document),
                                "must be a finite number, got nan (at $" + "[0]" * 5001 + ")")


class PictureTest(Case):
    """The pictures: byte for byte what `--gantt` writes, shown by notebooks."""

    def test_plan_pictures_are_the_command_lines(self):
        for module, instance, options in PICTURED:
            name = family(module)
            with self.subTest(family=name, options=options):
                plan = module.plan(instance, **options)
                self.assertIsInstance(plan, redist.Drawable)
                picture = plan.svg()
                self.assertIsInstance(picture, redist.Svg)
                self.assertTrue(picture.startswith("<svg"))
                self.assertTrue(picture.endswith("</svg>\n"))
                self.assertIn(f"redist {name} plan", picture)
                self.assertEqual(picture, module.gantt(instance, plan, f"redist {name} plan"))
                if name != "lau":
                    self.assertEqual(picture, cli_svg(name, "plan", instance, *flags(options)))
                self.assertEqual(plan._repr_svg_(), picture)
                self.assertEqual(picture._repr_svg_(), picture)

    def test_gantt_is_check_gantt(self):
        for module, instance, options in PICTURED:
            name = family(module)
            with self.subTest(family=name, options=options):
                plan = module.plan(instance, **options)
                picture = module.gantt(instance, plan)
                self.assertIn(f"redist {name} check", picture)
                self.assertEqual(picture, cli_svg(name, "check", instance, plan))
                mine = module.gantt(instance, plan, title="my title")
                self.assertIn(">my title", mine)
                self.assertNotIn(f"redist {name}", mine)

    def test_lau_plan_picture_is_the_command_lines(self):
        # The picture is drawn from the plan document, which states the planner's lower bound:
        # its title is `redist lau plan --gantt`'s.
        plan = redist.lau.plan(LAU, mode="multi")
        self.assertEqual(plan["lower_bound"], 2)
        cli = cli_svg("lau", "plan", LAU, "--mode", "multi")
        title = "optimal, multi-send: makespan 2 steps, lower bound 2, optimal: yes"
        self.assertIn(title, cli)
        self.assertEqual(plan.svg(), cli)

    def test_balance_advice(self):
        path = DATA / "balance" / "advise-8.json"
        advice = redist.balance.advise(path)
        self.assertIs(advice["rebalance"], True)
        self.assertEqual(advice.svg(), cli_svg("balance", "advise", path))
        self.assertEqual(redist.balance.plan(path).svg(), advice.svg())
        self.assertEqual(redist.balance.gantt(path, advice), advice.svg())
        wrong = dict(advice, targets=advice["targets"][:-1])
        self.assertRaisesRegex(ValueError, r"\(at \$\.targets\)",
                               lambda: redist.balance.gantt(path, wrong))

    def test_invalid_schedule_is_not_drawn(self):
        instance = load(EXAMPLES / "spec-example.json")
        schedule = redist.ring.plan(instance)
        schedule["makespan"] /= 2
        reason = redist.ring.check(instance, schedule)["reason"]
        self.assert_value_error(lambda: redist.ring.gantt(instance, schedule),
                                "cannot draw an invalid schedule: " + reason)
        self.assert_value_error(schedule.svg, "cannot draw an invalid schedule: " + reason)
        self.assertIsNone(schedule._repr_svg_())
        self.assertEqual(cli_svg("ring", "plan", instance).count("<svg"), 1)
        self.assert_cli_error(lambda: redist.ring.gantt(instance, {"transfers": 3}), "ring",
                              "check", instance, {"transfers": 3})

    def test_size_limit(self):
        ring = {"ring": {"loads": [1] * 1001, "targets": [1] * 1001, "cost_next": 1}}
        plan = redist.ring.plan(ring)
        with self.assertRaisesRegex(ValueError, "at most 1000 processors"):
            plan.svg()
        self.assertIsNone(plan._repr_svg_())

    def test_drawable_is_a_dict(self):
        instance = EXAMPLES / "demo-ring.json"
        plan = redist.ring.plan(instance)
        plain = cli_json("ring", "plan", instance)
        self.assertEqual(plan, plain)
        plain["seconds"] = plan["seconds"]  # the one member two runs do not share
        self.assertEqual(repr(plan), repr(plain))
        self.assertEqual(json.dumps(plan), json.dumps(plain))
        for copied in (copy.deepcopy(plan), pickle.loads(pickle.dumps(plan))):
            self.assertIsInstance(copied, redist.Drawable)
            self.assertEqual(copied, plan)
            self.assertEqual(copied.svg(), plan.svg())
        self.assertIsInstance(redist.ring.plan(instance, format="text"), str)
        self.assertNotIsInstance(redist.ring.check(instance, plan), redist.Drawable)


def load_tests(loader, tests, pattern):
    """The docstring examples of the package and of every module, as tests."""
    for module in [redist, *MODULES]:
        tests.addTests(doctest.DocTestSuite(module))
    return tests


if __name__ == "__main__":
    unittest.main()
