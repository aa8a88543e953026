// `redist lau plan --algorithm NAME --mode single|multi` (docs/lau.md): dispatch by name.
#pragma once

#include <string>

#include "redist/lau/model.hpp"

namespace redist::lau {

// linear | traffic | optimal-window | optimal; InputError at --algorithm otherwise.
Plan plan_lau(const Instance& instance, const std::string& algorithm, Mode mode);

// single | multi; InputError at --mode otherwise.
Mode parse_mode(const std::string& name);

}  // namespace redist::lau
