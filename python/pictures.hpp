// The pictures of the Python package: for each family, the SVG document that
// `redist FAMILY check --gantt FILE` writes for a valid schedule, from the JSON text of the
// instance and of the schedule (as `plan` returns it). Drawn by the renderers of redist/svg/; the
// package never draws itself. The Python objects that plan (redist.ring.plan(...).svg()) call
// these with the title of `redist FAMILY plan`, so that the picture is the one `--gantt` writes
// on `plan` too.
//
// Errors: InputError (ValueError in Python) located as the command line locates it, for a
// malformed document or a chart over the renderer's documented size limits (at --gantt);
// std::invalid_argument "cannot draw an invalid schedule: <the validator's reason>" when the
// schedule does not pass the family's validator (the renderers assume a valid one, and
// `check --gantt` draws only those). Complexity: that of reading, checking and drawing the
// schedule, linear in its size for every family but the validators' own costs.
#pragma once

#include <string>
#include <string_view>

namespace redist::python {

std::string ring_gantt(std::string_view instance, std::string_view schedule,
                       const std::string& title);
std::string lau_gantt(std::string_view instance, std::string_view plan, const std::string& title);
std::string star_gantt(std::string_view instance, std::string_view schedule,
                       const std::string& title);
std::string dlt_gantt(std::string_view instance, std::string_view schedule,
                      const std::string& title);
std::string exchange_gantt(std::string_view instance, std::string_view plan,
                           const std::string& title);
std::string slicering_gantt(std::string_view cluster, std::string_view solution,
                            const std::string& title);
// The advice's redistribution (`redist balance advise --gantt`): the ring chart of
// advice["schedule"], which moves the instance's loads to advice["targets"].
std::string balance_gantt(std::string_view instance, std::string_view advice,
                          const std::string& title);

}  // namespace redist::python
