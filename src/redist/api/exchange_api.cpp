// The JSON entry points of redist/exchange.hpp: what `redist exchange
// plan|check|bound|block-cyclic|migration` print.
#include "redist/api/entry_points.hpp"
#include "redist/exchange.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/options.hpp"

namespace redist::exchange {

std::string plan_json(std::string_view instance, std::string_view options) {
  return api::plan_json<Family>(instance, options);
}

std::string check_json(std::string_view instance, std::string_view plan_text) {
  return api::check_json<Family>(instance, plan_text);
}

std::string bound_json(std::string_view instance) {
  return io::located_in("$.exchange", [&] {
    return io::exchange_bound_json(
        bounds(io::read_exchange_instance(io::parse_document(instance))));
  });
}

std::string block_cyclic_json(std::string_view options) {
  return io::located_in("$", [&] {
    const io::EntryOptions o(
        options, {"elements", "element_bytes", "from_block", "from_procs", "to_block", "to_procs"});
    const auto given = [&](const char* name) {
      const std::optional<std::int64_t> value = o.integer(name);
      if (!value) throw OptionError("required (an integer)", name);
      return *value;
    };
    BlockCyclic layout;
    layout.elements = given("elements");
    layout.element_bytes = o.integer("element_bytes").value_or(1);
    layout.from_block = given("from_block");
    layout.from_procs = given("from_procs");
    layout.to_block = given("to_block");
    layout.to_procs = given("to_procs");
    try {
      return io::exchange_instance_json(block_cyclic(layout));
    } catch (const OptionError&) {
      throw;
    } catch (const InputError& e) {
      // The layout's fields are the options.
      throw OptionError(e.message(), e.path());
    }
  });
}

std::string migration_json(std::string_view ownership, std::string_view options) {
  return io::located_in("$", [&] {
    const io::EntryOptions o(options, {"nodes"});
    Ownership maps = io::read_ownership(io::parse_document(ownership));
    const std::int64_t nodes = o.integer("nodes").value_or(0);
    if (nodes < 0) throw OptionError("must be >= 0", "nodes");
    maps.nodes = static_cast<std::size_t>(nodes);
    try {
      return io::exchange_instance_json(from_ownership(maps));
    } catch (const OptionError&) {
      throw;
    } catch (const InputError& e) {
      if (e.path() == "nodes") throw OptionError(e.message(), "nodes");
      throw;
    }
  });
}

}  // namespace redist::exchange
