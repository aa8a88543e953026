# redist_fix_zoltan_target(): makes Zoltan's imported target trilinos_zoltan linkable when its
# package lists libraries this machine lacks. Debian's package names, as link dependencies, the
# unversioned shared objects of Scotch (libptscotch.so, ...), which only Scotch's -dev packages
# install; the shared Zoltan library records its own dependencies, so a listed file that does not
# exist is dropped (and said so). Used by the top-level CMakeLists.txt and by redistConfig.cmake.
function(redist_fix_zoltan_target)
  if(NOT TARGET trilinos_zoltan)
    return()
  endif()
  get_target_property(deps trilinos_zoltan INTERFACE_LINK_LIBRARIES)
  if(NOT deps)
    return()
  endif()
  set(kept)
  set(dropped)
  foreach(dep IN LISTS deps)
    if(IS_ABSOLUTE "${dep}" AND NOT EXISTS "${dep}")
      list(APPEND dropped ${dep})
    else()
      list(APPEND kept ${dep})
    endif()
  endforeach()
  if(dropped)
    set_property(TARGET trilinos_zoltan PROPERTY INTERFACE_LINK_LIBRARIES "${kept}")
    message(STATUS "Zoltan: left out of its link line, not installed here: ${dropped}")
  endif()
endfunction()
