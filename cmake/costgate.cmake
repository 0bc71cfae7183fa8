# Scenario support for any CMake project: the harness library and costgate_add_scenarios(), which
# builds one executable per scenario source and writes the manifest gate reads.
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

function(costgate_add_scenarios)
  cmake_parse_arguments(ARG "" "MANIFEST;OUTPUT_DIR" "SOURCES;LIBRARIES" ${ARGN})
  set(lines "# costgate scenario manifest: written by the build, read by gate\n")
  string(APPEND lines "compiler ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}\n")
  string(APPEND lines "flags ${COSTGATE_OPT_FLAGS}\n")
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(name ${source} NAME_WE)
    set(target scenario_${name})
    add_executable(${target} ${source})
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name}
      RUNTIME_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
    target_compile_options(${target} PRIVATE ${COSTGATE_OPT_FLAGS} ${COSTGATE_WARNINGS})
    target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} costgate_harness)
    string(APPEND lines "scenario ${name} $<TARGET_FILE:${target}>\n")
  endforeach()
  string(REPLACE ";" " " lines "${lines}")
  file(GENERATE OUTPUT ${ARG_MANIFEST} CONTENT "${lines}")
endfunction()
