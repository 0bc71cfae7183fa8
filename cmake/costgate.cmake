# Scenario support for any CMake project: the harness library and costgate_add_scenarios(), which
# builds one executable per scenario source and writes the manifest gate reads. With gperftools
# (pkg-config libtcmalloc libprofiler) it also builds a native variant of each at
# OUTPUT_DIR/native/<name>, listed in native/manifest.txt beside MANIFEST: the same sources and
# flags, the harness compiled with COSTGATE_NATIVE and linked with tcmalloc and the CPU profiler,
# for gate time, gate profile and gate --cross-check. The measured executables link neither.
#   include(path/to/costgate/cmake/costgate.cmake)
#   costgate_add_scenarios(MANIFEST ${CMAKE_BINARY_DIR}/scenarios/manifest.txt
#                          OUTPUT_DIR ${CMAKE_BINARY_DIR}/scenarios
#                          SOURCES a.c b.c LIBRARIES mylib)
# Scenarios are measured, so they are built with -O2 -g and never -march=native.
include_guard(GLOBAL)
get_filename_component(COSTGATE_ROOT ${CMAKE_CURRENT_LIST_DIR} DIRECTORY)

if(NOT DEFINED COSTGATE_OPT_FLAGS)
  set(COSTGATE_OPT_FLAGS -O2 -g)
endif()
if(NOT DEFINED COSTGATE_WARNINGS)
  set(COSTGATE_WARNINGS -Wall -Wextra)
endif()

if(NOT TARGET costgate_harness)
  find_package(cJSON REQUIRED CONFIG)
  add_library(costgate_harness STATIC ${COSTGATE_ROOT}/scenarios/harness.c
    ${COSTGATE_ROOT}/scenarios/queue.c)
  target_include_directories(costgate_harness PUBLIC ${COSTGATE_ROOT}/scenarios)
  target_compile_options(costgate_harness PRIVATE ${COSTGATE_OPT_FLAGS} ${COSTGATE_WARNINGS})
  target_link_libraries(costgate_harness PUBLIC cjson)
endif()

if(NOT DEFINED COSTGATE_NATIVE_FOUND)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(COSTGATE_GPERFTOOLS QUIET IMPORTED_TARGET GLOBAL libtcmalloc libprofiler)
  endif()
  set(COSTGATE_NATIVE_FOUND ${COSTGATE_GPERFTOOLS_FOUND})
  if(NOT COSTGATE_NATIVE_FOUND)
    message(STATUS "costgate: gperftools not found: no native scenario variants (gate time, "
      "gate profile and gate --cross-check need them)")
  endif()
endif()
if(COSTGATE_NATIVE_FOUND AND NOT TARGET costgate_harness_native)
  # An object library: linked to a scenario, its objects (main, the queue) come before any archive
  # is searched, so the measured harness in costgate_harness is never pulled in beside them.
  add_library(costgate_harness_native OBJECT ${COSTGATE_ROOT}/scenarios/harness.c
    ${COSTGATE_ROOT}/scenarios/queue.c ${COSTGATE_ROOT}/scenarios/native.c
    ${COSTGATE_ROOT}/scenarios/alloc_counter.c)
  target_include_directories(costgate_harness_native PUBLIC ${COSTGATE_ROOT}/scenarios)
  target_compile_definitions(costgate_harness_native PRIVATE COSTGATE_NATIVE)
  target_compile_options(costgate_harness_native PRIVATE ${COSTGATE_OPT_FLAGS} ${COSTGATE_WARNINGS})
  target_link_libraries(costgate_harness_native PUBLIC cjson PkgConfig::COSTGATE_GPERFTOOLS)
endif()

function(costgate_add_scenarios)
  cmake_parse_arguments(ARG "" "MANIFEST;OUTPUT_DIR" "SOURCES;LIBRARIES" ${ARGN})
  set(lines "# costgate scenario manifest: written by the build, read by gate\n")
  string(APPEND lines "compiler ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}\n")
  string(APPEND lines "flags ${COSTGATE_OPT_FLAGS}\n")
  set(native_lines "${lines}")
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(name ${source} NAME_WE)
    set(target scenario_${name})
    add_executable(${target} ${source})
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name}
      RUNTIME_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
    target_compile_options(${target} PRIVATE ${COSTGATE_OPT_FLAGS} ${COSTGATE_WARNINGS})
    target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} costgate_harness)
    string(APPEND lines "scenario ${name} $<TARGET_FILE:${target}>\n")
    if(TARGET costgate_harness_native)
      add_executable(${target}_native ${source})
      set_target_properties(${target}_native PROPERTIES OUTPUT_NAME ${name}
        RUNTIME_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR}/native)
      target_compile_options(${target}_native PRIVATE ${COSTGATE_OPT_FLAGS} ${COSTGATE_WARNINGS})
      target_compile_definitions(${target}_native PRIVATE COSTGATE_NATIVE)
      target_link_libraries(${target}_native PRIVATE costgate_harness_native ${ARG_LIBRARIES})
      string(APPEND native_lines "scenario ${name} $<TARGET_FILE:${target}_native>\n")
    endif()
  endforeach()
  string(REPLACE ";" " " lines "${lines}")
  file(GENERATE OUTPUT ${ARG_MANIFEST} CONTENT "${lines}")
  if(TARGET costgate_harness_native)
    get_filename_component(manifest_dir ${ARG_MANIFEST} DIRECTORY)
    string(REPLACE ";" " " native_lines "${native_lines}")
    file(GENERATE OUTPUT ${manifest_dir}/native/manifest.txt CONTENT "${native_lines}")
  endif()
endfunction()
