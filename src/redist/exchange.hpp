// redist/exchange.hpp: any redistribution as messages between the nodes of a switched network,
// scheduled under the one-port model (docs/exchange.md, docs/formats.md).
//
// Typed API (namespace redist::exchange):
//   Instance, Message, Backbone, Plan, Piece   the model (redist/exchange/model.hpp)
//   plan(instance, options)                    a plan by one of kAlgorithms; `auto` by default
//   check(instance, plan)                      the independent validator's verdict
//   bounds(instance)                           the lower bounds (ports, backbone) and the best
//   ordered_execution_makespan(instance, plan) what the MPI executor's run of a plan takes
//   block_cyclic(layout)                       the messages of a CYCLIC(r) -> CYCLIC(s) move
//   from_ownership(ownership)                  the messages of a move between two owner maps
// JSON entry points: exactly what `redist exchange plan|check|bound|block-cyclic|migration` print.
// Errors: redist::InputError whose what() is the command line's error line; the typed functions
// say where in the model's words (`messages[2][1]`), the JSON entry points as the command line
// does (`$.exchange.messages[2][1]`, `--algorithm`).
//
// Example:
//   redist::exchange::Instance in;
//   in.nodes = 3;
//   in.messages = {{0, 1, 1000}, {0, 2, 500}, {2, 1, 250}};
//   in.send_bandwidth = in.recv_bandwidth = {1e9, 1e9, 1e9};
//   const redist::exchange::Plan p = redist::exchange::plan(in);  // p.makespan == 1.5e-6
//   assert(redist::exchange::check(in, p).valid);
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/exchange/block_cyclic.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/migration.hpp"
#include "redist/exchange/model.hpp"
#include "redist/exchange/ordered_execution.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/validate.hpp"

namespace redist::exchange {

// `redist exchange plan`: instance {"exchange": {...}}, options {"algorithm", "format"}.
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist exchange check`: {"valid": true, "makespan": m} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view plan);
// `redist exchange bound`: {"lower_bound": x, "terms": {...}}.
std::string bound_json(std::string_view instance);
// `redist exchange block-cyclic`: the instance of moving an array from CYCLIC(r) on P to
// CYCLIC(s) on Q; options {"elements", "element_bytes", "from_block", "from_procs", "to_block",
// "to_procs"} (integers; all but element_bytes, default 1, required), the layout's errors at the
// option (`--from-procs`).
std::string block_cyclic_json(std::string_view options);
// `redist exchange migration`: the instance of moving items from their old owners to their new
// ones; `ownership` {"old", "new", "item_bytes"} (docs/formats.md), options {"nodes"} (default:
// 1 + the largest owner).
std::string migration_json(std::string_view ownership, std::string_view options = "{}");

}  // namespace redist::exchange
