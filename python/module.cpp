// The extension module redist._redist: the JSON entry points of the public headers
// (src/redist/<family>.hpp) for Python, one submodule per family, taking and returning JSON text
// exactly as the command line reads and prints it. The package `redist` (python/redist/) wraps
// them in functions on dicts; docs/python.md.
//
// Errors: the entry points throw redist::InputError, a std::invalid_argument whose what() is the
// text of the command line's `error:` line; pybind11 raises every std::invalid_argument as
// ValueError with that message. The GIL is released while an entry point runs (planning can take
// a while, and the core keeps no shared mutable state). Each family also has `gantt(instance,
// schedule, title)`: the SVG picture of a valid schedule from the renderers of redist/svg/
// (pictures.hpp).
#include <pybind11/pybind11.h>

#include <chrono>
#include <string>
#include <string_view>

#include "pictures.hpp"
#include "redist/api/entry_points.hpp"
#include "redist/api/families.hpp"
#include "redist/api/seconds.hpp"
#include "redist/balance.hpp"
#include "redist/dlt.hpp"
#include "redist/exchange.hpp"
#include "redist/io/formats.hpp"
#include "redist/io/json.hpp"
#include "redist/lau.hpp"
#include "redist/ring.hpp"
#include "redist/slicering.hpp"
#include "redist/star.hpp"

namespace py = pybind11;

namespace {

using OneDocument = std::string (*)(std::string_view);
using TwoDocuments = std::string (*)(std::string_view, std::string_view);
using Picture = std::string (*)(std::string_view, std::string_view, const std::string&);

constexpr const char* kRaises = "Raises ValueError with the text of the command line's error line.";

std::string plan_doc(const std::string& family) {
  return "What `redist " + family + " plan` prints; options: its option names without dashes. " +
         kRaises;
}

// `body()`, the output of an entry point, with the seconds it took (as the command line states
// them, redist/api/seconds.hpp).
template <class Body>
std::string timed(Body&& body) {
  const auto started = std::chrono::steady_clock::now();
  std::string output = body();
  return redist::with_seconds(std::move(output), redist::seconds_since(started));
}

// `name(instance)`: an entry point that reads one document. pybind11 copies the docstrings and
// prefixes them with the signature.
void def_one(py::module_& m, const char* name, OneDocument entry, const std::string& doc) {
  m.def(
      name, [entry](const std::string& instance) { return timed([&] { return entry(instance); }); },
      py::arg("instance"), doc.c_str(), py::call_guard<py::gil_scoped_release>());
}

// `name(instance, options="{}")`: a plan (or advice), the options a JSON object of the command
// line's option names.
void def_plan(py::module_& m, const char* name, TwoDocuments entry, const std::string& doc) {
  m.def(
      name,
      [entry](const std::string& instance, const std::string& options) {
        return timed([&] { return entry(instance, options); });
      },
      py::arg("instance"), py::arg("options") = "{}", doc.c_str(),
      py::call_guard<py::gil_scoped_release>());
}

// `check(instance, <second>)`: the verdict on a schedule (or solution).
void def_check(py::module_& m, const std::string& family, TwoDocuments entry,
               const char* second = "schedule") {
  m.def(
      "check",
      [entry](const std::string& instance, const std::string& schedule) {
        return timed([&] { return entry(instance, schedule); });
      },
      py::arg("instance"), py::arg(second),
      ("What `redist " + family + " check` prints: the validator's verdict. " + kRaises).c_str(),
      py::call_guard<py::gil_scoped_release>());
}

// `gantt(instance, <second>, title)`: the SVG picture of a valid schedule (or plan, solution,
// advice), as `redist FAMILY check --gantt` writes it when `title` is "redist FAMILY check".
void def_gantt(py::module_& m, const std::string& family, Picture entry,
               const char* second = "schedule") {
  m.def(
      "gantt",
      [entry](const std::string& instance, const std::string& schedule, const std::string& title) {
        return entry(instance, schedule, title);
      },
      py::arg("instance"), py::arg(second), py::arg("title"),
      ("The SVG document `redist " + family +
       " check --gantt` writes for a valid schedule; the title line starts with `title`. " +
       kRaises + " An invalid schedule is not drawn (ValueError).")
          .c_str(),
      py::call_guard<py::gil_scoped_release>());
}

}  // namespace

PYBIND11_MODULE(_redist, m) {
  m.doc() =
      "The JSON entry points of redist, one submodule per family: JSON text in, the command "
      "line's output out. The package's modules (redist.ring, ...) take and return dicts.";
  m.attr("__version__") = REDIST_VERSION;
  // The largest document any entry point reads (the command line's limit of every input).
  m.attr("MAX_DOCUMENT_BYTES") = redist::io::kMaxDocumentBytes;

  // Every family of the list (redist/api/families.hpp): its submodule with `plan` and `check`,
  // the JSON entry points written once over its faces (redist/api/entry_points.hpp).
  redist::for_each_family(redist::Families{}, [&]<class F>() {
    const std::string name(F::name);
    py::module_ family = m.def_submodule(name.c_str(), (std::string(F::title) + ".").c_str());
    def_plan(family, "plan", &redist::api::plan_json<F>, plan_doc(name));
    const std::string noun = redist::io::output_noun(name);
    def_check(family, name, &redist::api::check_json<F>, noun.c_str());
    def_gantt(family, name, &redist::api::chart_svg<F>, noun.c_str());
  });
  // The planning families, in the list's order: each has its module in the package (the Python
  // tests fail for a family without one).
  py::tuple families(redist::Families::size);
  std::size_t index = 0;
  redist::for_each_family(redist::Families{},
                          [&]<class F>() { families[index++] = py::str(std::string(F::name)); });
  m.attr("FAMILIES") = families;
  // What some families add.
  py::module_ ring = m.attr("ring").cast<py::module_>();
  def_one(ring, "bound", &redist::ring::bound_json,
          std::string("What `redist ring bound` prints: the lower bounds. ") + kRaises);

  py::module_ lau = m.attr("lau").cast<py::module_>();
  def_one(lau, "eval", &redist::lau::eval_json,
          std::string("What `redist lau eval` prints: the times of given flows. ") + kRaises);

  py::module_ star = m.attr("star").cast<py::module_>();
  def_one(star, "order", &redist::star::order_json,
          std::string("What `redist star order` prints (STAR Theorem 1). ") + kRaises);

  py::module_ exchange = m.attr("exchange").cast<py::module_>();
  def_one(exchange, "bound", &redist::exchange::bound_json,
          std::string("What `redist exchange bound` prints: the lower bounds. ") + kRaises);
  const std::string block_cyclic_doc =
      std::string(
          "What `redist exchange block-cyclic` prints: the instance of moving an array "
          "from CYCLIC(r) on P to CYCLIC(s) on Q; options {\"elements\", "
          "\"element_bytes\", \"from_block\", \"from_procs\", \"to_block\", "
          "\"to_procs\"}. ") +
      kRaises;
  exchange.def(
      "block_cyclic",
      [](const std::string& options) {
        return timed([&] { return redist::exchange::block_cyclic_json(options); });
      },
      py::arg("options"), block_cyclic_doc.c_str(), py::call_guard<py::gil_scoped_release>());
  const std::string migration_doc =
      std::string(
          "What `redist exchange migration` prints: the instance of moving items from "
          "their old owners to their new ones; options {\"nodes\"}. ") +
      kRaises;
  exchange.def(
      "migration",
      [](const std::string& ownership, const std::string& options) {
        return timed([&] { return redist::exchange::migration_json(ownership, options); });
      },
      py::arg("ownership"), py::arg("options") = "{}", migration_doc.c_str(),
      py::call_guard<py::gil_scoped_release>());

  py::module_ balance =
      m.def_submodule("balance", "Rebalancing an iterative application on a ring.");
  const std::string advise_doc =
      std::string("What `redist balance advise` prints: rebalance now, and to what. ") + kRaises;
  def_plan(balance, "plan", &redist::balance::advise_json,
           "The family's plan: the advice. " + advise_doc);
  def_plan(balance, "advise", &redist::balance::advise_json, advise_doc);
  const std::string simulate_doc =
      std::string("What `redist balance simulate` prints; options {\"policy\": NAME}. ") + kRaises;
  balance.def(
      "simulate",
      [](const std::string& instance, const std::string& options) {
        return timed([&] { return redist::balance::simulate_json(instance, options); });
      },
      py::arg("instance"), py::arg("options"), simulate_doc.c_str(),
      py::call_guard<py::gil_scoped_release>());
  balance.def(
      "gantt",
      [](const std::string& instance, const std::string& advice, const std::string& title) {
        return redist::python::balance_gantt(instance, advice, title);
      },
      py::arg("instance"), py::arg("advice"), py::arg("title"),
      ("The SVG document `redist balance advise --gantt` writes: the chart of the "
       "advice's redistribution when `title` is \"redist balance advise\". " +
       std::string(kRaises))
          .c_str(),
      py::call_guard<py::gil_scoped_release>());
}
