# What `cmake --install build --prefix P` puts under P (docs/library.md, "Installing and linking"):
#
#   include/redist/...            every header of src/redist but the tests' (testing/, *_test.hpp):
#                                 the C++ headers and the drop-in's C header redist/mpi/dropin.h
#   lib/libredist_*.a             the core libraries; redist_mpi_plan, redist_mpi when MPI was found;
#                                 redist_zoltan when Zoltan was found too
#   lib/libredist-pmpi.so         the profiling library (MPI_Alltoallv through the drop-in, for
#                                 LD_PRELOAD), when MPI was found
#   bin/                          redist, redist-platform, and when built redist-ring-sim, redist-mpi,
#                                 redist-calibrate
#   lib/cmake/redist/             the CMake package: find_package(redist CONFIG) gives redist::core
#                                 (every core library), redist::mpi when MPI was found and
#                                 redist::zoltan when Zoltan was found
#   lib/pkgconfig/redist.pc       the core libraries for pkg-config
#   lib/pkgconfig/redist-mpi.pc   the MPI component (C and C++) for pkg-config, when MPI was found
#   REDIST_PYTHON_INSTALL_DIR/redist/  the Python package, component `python`, when built
#                                 (python/CMakeLists.txt, docs/python.md)
#
# Included by the top-level CMakeLists.txt after every target is defined (REDIST_INSTALL).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(redist_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/redist)

# Headers: the whole tree, so that a header added to src/redist is installed without a change
# here. The MPI headers go only with the MPI library: without it they would name a library the
# package does not have.
set(redist_header_excludes PATTERN "*_test.hpp" EXCLUDE PATTERN "testing" EXCLUDE)
if(NOT TARGET redist_mpi)
  list(APPEND redist_header_excludes PATTERN "mpi" EXCLUDE PATTERN "mpi.hpp" EXCLUDE)
endif()
if(NOT TARGET redist_zoltan)
  list(APPEND redist_header_excludes PATTERN "zoltan" EXCLUDE PATTERN "zoltan.hpp" EXCLUDE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/redist/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/redist
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" ${redist_header_excludes})

# Libraries, under the names of the package: redist_ring is exported as redist::ring (the ALIAS
# targets of src/redist/CMakeLists.txt give a build-tree user the same names). Two export sets:
# the MPI libraries need MPI, which a user of the core alone may not have installed, so
# redistConfig.cmake loads them only when it finds MPI.
get_property(redist_core_targets GLOBAL PROPERTY REDIST_CORE_TARGETS)
list(APPEND redist_core_targets redist_core)
set(redist_mpi_targets)
if(TARGET redist_mpi)
  set(redist_mpi_targets redist_mpi_plan redist_mpi)
endif()
foreach(target IN LISTS redist_core_targets redist_mpi_targets)
  string(REGEX REPLACE "^redist_" "" name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
endforeach()
install(TARGETS ${redist_core_targets} EXPORT redistTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT redistTargets NAMESPACE redist:: DESTINATION ${redist_cmake_dir})
if(redist_mpi_targets)
  install(TARGETS ${redist_mpi_targets} EXPORT redistMpiTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT redistMpiTargets NAMESPACE redist:: DESTINATION ${redist_cmake_dir})
endif()

# The Zoltan adapter, a third export set: it needs Zoltan's package, which redistConfig.cmake
# looks for only when asked for the component `zoltan` (or finding it anyway).
if(TARGET redist_zoltan)
  set_target_properties(redist_zoltan PROPERTIES EXPORT_NAME zoltan)
  install(TARGETS redist_zoltan EXPORT redistZoltanTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT redistZoltanTargets NAMESPACE redist:: DESTINATION ${redist_cmake_dir})
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/zoltan.cmake DESTINATION ${redist_cmake_dir}
          RENAME redistZoltan.cmake)
endif()

# Programs: those this build has (redist-ring-sim needs SimGrid, redist-mpi and redist-calibrate
# MPI).
set(redist_programs)
foreach(program redist redist-platform redist-ring-sim redist-mpi redist-calibrate)
  if(TARGET ${program})
    list(APPEND redist_programs ${program})
  endif()
endforeach()
install(TARGETS ${redist_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The profiling library: a plugin for LD_PRELOAD, not a library to link, so it is in no export
# set. It holds the drop-in whole and needs only the MPI library at run time.
if(TARGET redist-pmpi)
  install(TARGETS redist-pmpi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

# The CMake package. Its version file accepts a request for the same major.minor (0.x: a minor
# version may change the interface).
set(REDIST_PACKAGE_WITH_MPI OFF)
if(redist_mpi_targets)
  set(REDIST_PACKAGE_WITH_MPI ON)
endif()
set(REDIST_PACKAGE_WITH_ZOLTAN OFF)
if(TARGET redist_zoltan)
  set(REDIST_PACKAGE_WITH_ZOLTAN ON)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/redistConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/redistConfig.cmake
                              INSTALL_DESTINATION ${redist_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/redistConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/redistConfig.cmake ${PROJECT_BINARY_DIR}/redistConfigVersion.cmake
        DESTINATION ${redist_cmake_dir})

# redist.pc and redist-mpi.pc. A static library must come before every library it uses on a link
# line (the linker only takes from an archive what the objects before it left undefined), so Libs
# lists the libraries in reverse topological order of their dependencies: a depth-first walk of
# the link dependencies from the root appends each library after all the libraries it uses, and
# the list is then reversed. The libraries they use in turn (CLP, fmt) come from Requires, which
# pkg-config prints after Libs.
function(redist_link_walk target)
  get_property(seen GLOBAL PROPERTY REDIST_LINK_WALK_SEEN)
  if(target IN_LIST seen)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY REDIST_LINK_WALK_SEEN ${target})
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(private_deps ${target} LINK_LIBRARIES)
    list(APPEND deps ${private_deps})
  endif()
  foreach(dep IN LISTS deps)
    if(dep MATCHES "^redist_" AND TARGET ${dep})
      redist_link_walk(${dep})
    endif()
  endforeach()
  if(type STREQUAL "STATIC_LIBRARY")
    set_property(GLOBAL APPEND PROPERTY REDIST_LINK_WALK_ORDER ${target})
  endif()
endfunction()
# redist_pc_libs(<out> <root>): "-lredist_a -lredist_b ..." for everything <root> links, in link
# order.
function(redist_pc_libs out root)
  set_property(GLOBAL PROPERTY REDIST_LINK_WALK_SEEN)
  set_property(GLOBAL PROPERTY REDIST_LINK_WALK_ORDER)
  redist_link_walk(${root})
  get_property(order GLOBAL PROPERTY REDIST_LINK_WALK_ORDER)
  list(REVERSE order)
  list(TRANSFORM order PREPEND "-l")
  list(JOIN order " " libs)
  set(${out} "${libs}" PARENT_SCOPE)
endfunction()
redist_pc_libs(REDIST_PC_LIBS redist_core)
# What the libraries use, for both files: fmt everywhere, CLP in lp, nlohmann_json in io.
set(REDIST_PC_REQUIRES "nlohmann_json >= 3.10, fmt, clp")
# The prefix is found from the file's own place, as redistConfig.cmake finds its own: the install
# prefix may be chosen after configuration (cmake --install --prefix).
set(REDIST_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
set(REDIST_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
if(IS_ABSOLUTE ${CMAKE_INSTALL_INCLUDEDIR} OR IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR})
  # Directories given as absolute paths do not move with the prefix.
  set(REDIST_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
  set(REDIST_PC_INCLUDEDIR ${CMAKE_INSTALL_FULL_INCLUDEDIR})
  set(REDIST_PC_LIBDIR ${CMAKE_INSTALL_FULL_LIBDIR})
else()
  file(RELATIVE_PATH relative_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
  string(REGEX REPLACE "/$" "" relative_prefix ${relative_prefix})
  set(REDIST_PC_PREFIX "\${pcfiledir}/${relative_prefix}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/redist.pc.in ${PROJECT_BINARY_DIR}/redist.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/redist.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# redist-mpi.pc: the MPI component, for C programs (the drop-in, redist/mpi/dropin.h) as well as
# C++ ones. It stands alone rather than requiring redist.pc, whose -std=c++20 a C compiler may
# refuse (clang does): C++ programs add -std=c++20 themselves. Libs lists everything redist_mpi
# links (core libraries included), then the MPI library this build was compiled against, as CMake
# found it (any MPI implementation, not only those that ship a .pc file), then the C++ runtime:
# the libraries are C++, and a C program linked by the C compiler does not get it otherwise.
if(TARGET redist_mpi)
  redist_pc_libs(REDIST_MPI_PC_LIBS redist_mpi)
  set(mpi_cflags)
  foreach(dir IN LISTS MPI_CXX_INCLUDE_DIRS)
    list(APPEND mpi_cflags "-I${dir}")
  endforeach()
  foreach(definition IN LISTS MPI_CXX_COMPILE_DEFINITIONS)
    list(APPEND mpi_cflags "-D${definition}")
  endforeach()
  list(APPEND mpi_cflags ${MPI_CXX_COMPILE_OPTIONS})
  list(REMOVE_DUPLICATES mpi_cflags)
  list(JOIN mpi_cflags " " REDIST_MPI_PC_CFLAGS)
  # The MPI libraries as -L<dir> -l<name> when they are ordinary library files (as pkg-config
  # users expect), their full paths otherwise.
  set(mpi_libs ${MPI_CXX_LINK_FLAGS})
  foreach(library IN LISTS MPI_CXX_LIBRARIES)
    if(library MATCHES "^(.*)/lib([^/]+)\\.(so|a)$")
      list(APPEND mpi_libs "-L${CMAKE_MATCH_1}" "-l${CMAKE_MATCH_2}")
    else()
      list(APPEND mpi_libs "${library}")
    endif()
  endforeach()
  # The C++ runtime: the C++ compiler's implicit libraries but those every C program links anyway
  # (libc, libgcc).
  set(cxx_runtime ${CMAKE_CXX_IMPLICIT_LINK_LIBRARIES})
  list(REMOVE_ITEM cxx_runtime c gcc gcc_s gcc_eh)
  list(REMOVE_DUPLICATES cxx_runtime)
  list(TRANSFORM cxx_runtime PREPEND "-l")
  list(APPEND mpi_libs ${cxx_runtime})
  list(REMOVE_DUPLICATES mpi_libs)
  list(JOIN mpi_libs " " REDIST_MPI_PC_EXTRA_LIBS)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/redist-mpi.pc.in ${PROJECT_BINARY_DIR}/redist-mpi.pc
                 @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/redist-mpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
