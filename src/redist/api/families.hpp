// redist/api/families.hpp: the one list of redist's planning families (redist/common/family.hpp;
// docs/library.md, "Adding a family"). It drives the JSON entry points (entry_points.hpp), the
// command line's plan and check commands and the faces test (families_test.cpp), which fails when
// a family of the list misses its JSON, text or picture face.
#pragma once

#include "redist/common/family.hpp"
#include "redist/dlt/family.hpp"
#include "redist/exchange/family.hpp"
#include "redist/io/dlt_json.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/io/star_json.hpp"
#include "redist/lau/family.hpp"
#include "redist/ring/family.hpp"
#include "redist/slicering/family.hpp"
#include "redist/star/family.hpp"
#include "redist/svg/dlt_gantt.hpp"
#include "redist/svg/exchange_gantt.hpp"
#include "redist/svg/lau_steps.hpp"
#include "redist/svg/ring_gantt.hpp"
#include "redist/svg/slicering_ring.hpp"
#include "redist/svg/star_gantt.hpp"
#include "redist/text/dlt_summary.hpp"
#include "redist/text/exchange_summary.hpp"
#include "redist/text/lau_summary.hpp"
#include "redist/text/ring_summary.hpp"
#include "redist/text/slicering_summary.hpp"
#include "redist/text/star_summary.hpp"

namespace redist {

// Adding a family: its folder (with family.hpp), its faces, and one name here.
using Families = FamilyList<ring::Family, lau::Family, star::Family, dlt::Family, slicering::Family,
                            exchange::Family>;

// A family of the list with all its faces.
template <class F>
concept FamilyWithFaces = io::HasJsonFace<F> && text::HasTextFace<F> && svg::HasChartFace<F>;

}  // namespace redist
