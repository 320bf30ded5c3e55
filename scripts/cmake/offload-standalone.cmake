# Included after offload/'s project() (CMAKE_PROJECT_INCLUDE) by the overlay
# build, which configures offload/ on its own against Debian's LLVM package
# (scripts/lib/overlay.py).  The plugins call a helper that only the LLVM
# runtimes build defines, to order the plugins after in-tree tools; there are
# no in-tree tools here, so it does nothing.
if(NOT COMMAND add_runtimes_build_depends_if_needed)
  function(add_runtimes_build_depends_if_needed)
  endfunction()
endif()
