#!/usr/bin/env python3
"""The installed Python package: `cmake --install BUILD --prefix P --component python` puts the
package under P/SITE (SITE: REDIST_PYTHON_INSTALL_DIR, relative to the prefix), where an
interpreter started in a clean environment (no variable but PYTHONPATH=P/SITE, run from an
empty directory) imports it, plans and draws; and SITE is the directory where this interpreter's
own installation scheme puts packages, so that with the scheme's prefix (/usr/local for Debian's
python3) no PYTHONPATH is needed.

Usage (ctest python_install, python/CMakeLists.txt): test_install.py CMAKE BUILD SITE
"""

import json
import os
import pathlib
import subprocess
import sys
import sysconfig
import tempfile
import unittest

CMAKE, BUILD, SITE = sys.argv[1:4] if len(sys.argv) >= 4 else (None, None, None)

# Run by the installed package: where it was imported from, a plan and its picture.
PROBE = """
import json, redist
ring = {"ring": {"loads": [2, 0], "targets": [1, 1], "cost_next": 1}}
plan = redist.ring.plan(ring)
print(json.dumps({"package": redist.__file__, "native": redist._redist.__file__,
                  "version": redist.__version__, "makespan": plan["makespan"],
                  "svg": plan.svg()[:4]}))
"""


class InstallTest(unittest.TestCase):
    def setUp(self):
        if CMAKE is None:
            self.skipTest("usage: test_install.py CMAKE BUILD SITE")

    def test_site_is_the_interpreters_own(self):
        # With the prefix of the interpreter's scheme, the package lands on its sys.path.
        expected = pathlib.Path(sysconfig.get_path("platlib"))
        self.assertFalse(pathlib.Path(SITE).is_absolute(), SITE)
        self.assertEqual(pathlib.Path(sysconfig.get_path("data")) / SITE, expected)

    def test_installed_package_imports_from_a_clean_environment(self):
        with tempfile.TemporaryDirectory() as prefix, tempfile.TemporaryDirectory() as empty:
            subprocess.run([CMAKE, "--install", BUILD, "--prefix", prefix, "--component",
                            "python"], check=True, capture_output=True, timeout=300)
            site = pathlib.Path(prefix) / SITE
            installed = sorted(p.name for p in (site / "redist").iterdir())
            sources = pathlib.Path(__file__).resolve().parents[1] / "redist"
            self.assertEqual([n for n in installed if n.endswith(".py")],
                             sorted(p.name for p in sources.glob("*.py")))
            native = [n for n in installed if n.startswith("_redist") and n.endswith(".so")]
            self.assertEqual(len(native), 1, installed)
            environment = {"PYTHONPATH": str(site), "PYTHONNOUSERSITE": "1",
                           "PYTHONDONTWRITEBYTECODE": "1"}
            result = subprocess.run([sys.executable, "-c", PROBE], cwd=empty, env=environment,
                                    capture_output=True, text=True, timeout=300, check=False)
            self.assertEqual(result.returncode, 0, result.stderr)
            seen = json.loads(result.stdout)
            self.assertEqual(pathlib.Path(seen["package"]).parent, site / "redist")
            self.assertEqual(pathlib.Path(seen["native"]).parent, site / "redist")
            self.assertEqual(seen["makespan"], 1.0)
            self.assertEqual(seen["svg"], "<svg")
            self.assertTrue(seen["version"])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + ["-v"])
