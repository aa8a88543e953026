// The balance family's picture in the Python package: the SVG document that
// `redist balance advise --gantt FILE` writes for an advice, from the JSON text of the instance
// and of the advice. Drawn by the renderers of redist/svg/; the package never draws itself. The
// planning families' pictures are api::chart_svg<F> (redist/api/entry_points.hpp), bound for
// every family of the list.
//
// Errors: InputError (ValueError in Python) located as the command line locates it, for a
// malformed document or a chart over the renderer's documented size limits (at --gantt);
// std::invalid_argument "cannot draw an invalid schedule: <the validator's reason>" when the
// schedule does not pass the ring validator. Complexity: linear in the schedule's size.
#pragma once

#include <string>
#include <string_view>

namespace redist::python {

// The advice's redistribution (`redist balance advise --gantt`): the ring chart of
// advice["schedule"], which moves the instance's loads to advice["targets"].
std::string balance_gantt(std::string_view instance, std::string_view advice,
                          const std::string& title);

}  // namespace redist::python
