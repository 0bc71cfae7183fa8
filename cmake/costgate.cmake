# costgate_add_scenarios(): one executable per scenario source, and the manifest gate reads.
# Installed as part of the costgate CMake package, so a project writes only
#   find_package(costgate 0.2 CONFIG REQUIRED)
#   costgate_add_scenarios(SOURCES scenarios/parse_order.c LIBRARIES mylib)
# costgate's own build uses the same function. Included straight from a costgate source tree
# (vendored, or a submodule), it builds the harness from that tree first.
#
#   costgate_add_scenarios(SOURCES file.c...        one scenario per file, named by the file
#                          [LIBRARIES target...]    what the scenarios link (the code measured)
#                          [COMPILE_OPTIONS opt...] added to the scenarios' own compile lines
#                          [OPT_FLAGS flag...]      the measured optimisation, default -O2 -g
#                          [MANIFEST file]          default ${CMAKE_BINARY_DIR}/scenarios/manifest.txt
#                          [OUTPUT_DIR dir])        default ${CMAKE_BINARY_DIR}/scenarios
#
# Scenario sources are compiled with the project's own flags plus OPT_FLAGS (which come last, so
# they win over a -O in CMAKE_C_FLAGS); never -march=native, which valgrind cannot run and whose
# counts would not travel. The manifest records, per scenario, the flags it and every library
# target it links were really compiled and linked with, as CMake computed them, so that a changed
# flag is a different toolchain to gate, never a regression blamed on the code.
#
# Deliberate: this file runs in the host project's scope, under whatever policies its
# cmake_minimum_required() set (2.8.12 leaves CMP0057, IN_LIST, unset). It sets its own: the
# functions below record the policies of CMake 3.19, costgate's minimum, when they are defined,
# and run under them wherever they are called from. Nothing here needs a newer CMake.
if(CMAKE_VERSION VERSION_LESS 3.19)
  message(FATAL_ERROR "costgate: needs CMake 3.19 or newer to run (this is ${CMAKE_VERSION}); "
    "a project's cmake_minimum_required() may say less")
endif()
include_guard(GLOBAL)
cmake_policy(PUSH)
cmake_policy(VERSION 3.19)

# The compile options that give what costgate builds for measuring a debug format valgrind
# reads, given the flags the build has already (`flags`, one string): nothing for GCC, whose
# DWARF 5 valgrind 3.19 reads; for clang, -gdwarf-4 unless the flags choose a DWARF version
# (clang 14's DWARF 5 is one valgrind 3.19 cannot read: "Possibly corrupted debuginfo file"),
# and -grecord-command-line unless they say, so that its DW_AT_producer names the flags as GCC's
# does. The host's own -g level and format are never overridden.
function(_costgate_debug_options out flags)
  set(options "")
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    if(NOT flags MATCHES "-gdwarf")
      list(APPEND options -gdwarf-4)
    endif()
    if(NOT flags MATCHES "record-command-line")
      list(APPEND options -grecord-command-line)
    endif()
  endif()
  set(${out} "${options}" PARENT_SCOPE)
endfunction()

set(COSTGATE_MODULE_DIR ${CMAKE_CURRENT_LIST_DIR})
if(NOT DEFINED COSTGATE_VERSION)
  set(COSTGATE_VERSION "${costgate_VERSION}")
endif()
if(NOT TARGET costgate::harness)
  if(NOT EXISTS ${COSTGATE_MODULE_DIR}/harness/CMakeLists.txt)
    message(FATAL_ERROR "costgate: costgate::harness is not defined: use "
      "find_package(costgate CONFIG) rather than including costgate.cmake alone")
  endif()
  # From a costgate source tree: its version is read from the tree's own project() line.
  file(STRINGS ${COSTGATE_MODULE_DIR}/../CMakeLists.txt costgate_project_line
       REGEX "^project\\(costgate VERSION [0-9.]+")
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" COSTGATE_VERSION "${costgate_project_line}")
  add_subdirectory(${COSTGATE_MODULE_DIR}/harness ${CMAKE_BINARY_DIR}/costgate-harness)
endif()
set_property(GLOBAL PROPERTY COSTGATE_VERSION "${COSTGATE_VERSION}")

set(COSTGATE_OPT_FLAGS -O2 -g CACHE STRING "Optimisation the scenarios are measured at")

# The compile flags of one target: its directory's CMAKE_C_FLAGS (and the build type's), the
# language standard, and its options and definitions, transitive ones included (generator
# expressions, so this is what the build uses). Evaluated at the end of the configure step, when
# every directory is known.
function(_costgate_target_flags out target)
  get_target_property(directory ${target} SOURCE_DIR)
  get_directory_property(flags DIRECTORY ${directory} DEFINITION CMAKE_C_FLAGS)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  if(build_type)
    get_directory_property(type_flags DIRECTORY ${directory} DEFINITION CMAKE_C_FLAGS_${build_type})
    string(APPEND flags " ${type_flags}")
  endif()
  set(p "$<TARGET_PROPERTY:${target},")
  string(APPEND flags
    " [C_STANDARD $<IF:$<BOOL:${p}C_STANDARD>>,$<IF:$<BOOL:$<IF:$<STREQUAL:${p}C_EXTENSIONS>,>,ON,${p}C_EXTENSIONS>>>,gnu,c>${p}C_STANDARD>,default>]"
    " $<JOIN:${p}COMPILE_OPTIONS>, >"
    " $<$<BOOL:${p}COMPILE_DEFINITIONS>>:-D$<JOIN:${p}COMPILE_DEFINITIONS>, -D>>")
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# The library targets built by this project that `target` links, however deep (imported ones are
# the system's: gate records their package versions instead).
function(_costgate_built_libraries out target)
  set(pending ${target})
  set(seen "")
  set(found "")
  while(pending)
    list(POP_FRONT pending current)
    foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(items ${current} ${property})
      if(NOT items)
        continue()
      endif()
      foreach(item IN LISTS items)
        if(NOT TARGET "${item}" OR item IN_LIST seen)
          continue()
        endif()
        list(APPEND seen ${item})
        get_target_property(aliased ${item} ALIASED_TARGET)
        if(aliased)
          set(item ${aliased})
        endif()
        get_target_property(imported ${item} IMPORTED)
        get_target_property(type ${item} TYPE)
        if(imported OR type STREQUAL "INTERFACE_LIBRARY" OR item MATCHES "^costgate_harness")
          continue()
        endif()
        list(APPEND found ${item})
        list(APPEND pending ${item})
      endforeach()
    endforeach()
  endwhile()
  list(REMOVE_DUPLICATES found)
  list(SORT found)
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# Says what a library a scenario links needs when clang builds it without a DWARF version:
# costgate gives its own objects one valgrind reads (_costgate_debug_options), never the
# project's.
function(_costgate_check_debug_format library)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    return()
  endif()
  get_target_property(directory ${library} SOURCE_DIR)
  get_directory_property(flags DIRECTORY ${directory} DEFINITION CMAKE_C_FLAGS)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  if(build_type)
    get_directory_property(type_flags DIRECTORY ${directory} DEFINITION CMAKE_C_FLAGS_${build_type})
    string(APPEND flags " ${type_flags}")
  endif()
  get_target_property(options ${library} COMPILE_OPTIONS)
  if(NOT "${flags} ${options}" MATCHES "-gdwarf")
    message(WARNING "costgate: '${library}', which a scenario links, is built by clang "
      "${CMAKE_C_COMPILER_VERSION} without a DWARF version: clang 14 writes DWARF 5, which "
      "valgrind before 3.20 cannot read (\"Possibly corrupted debuginfo file\"). Build it with "
      "-gdwarf-4: target_compile_options(${library} PRIVATE -gdwarf-4), or -gdwarf-4 in "
      "CMAKE_C_FLAGS.")
  endif()
endfunction()

# One "build NAME TEXT" line: the scenario's compile flags, each built library's, and the link.
function(_costgate_build_line out name target)
  _costgate_target_flags(text ${target})
  set(line "build ${name} ${text}")
  _costgate_built_libraries(libraries ${target})
  foreach(library IN LISTS libraries)
    _costgate_check_debug_format(${library})
    _costgate_target_flags(library_flags ${library})
    string(APPEND line " | ${library}: ${library_flags}")
  endforeach()
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  set(link "${CMAKE_EXE_LINKER_FLAGS}")
  if(build_type)
    string(APPEND link " ${CMAKE_EXE_LINKER_FLAGS_${build_type}}")
  endif()
  string(APPEND line " | link: ${link} $<JOIN:$<TARGET_PROPERTY:${target},LINK_OPTIONS>, >")
  string(REGEX REPLACE "[ \t\r\n]+" " " line "${line}")
  set(${out} "${line}\n" PARENT_SCOPE)
endfunction()

# The options a re-measure of another commit is configured with: the cache entries a user can
# set, except paths into this build or source tree (the other commit has its own).
function(_costgate_configure_script path)
  set(script "# costgate: the cache options this build was configured with, for gate's re-measure\n")
  get_cmake_property(names CACHE_VARIABLES)
  list(SORT names)
  foreach(name IN LISTS names)
    get_property(type CACHE ${name} PROPERTY TYPE)
    get_property(value CACHE ${name} PROPERTY VALUE)
    if(type STREQUAL "INTERNAL" OR type STREQUAL "STATIC" OR name MATCHES "^CMAKE_(CACHEFILE_DIR|HOME_DIRECTORY|COMMAND|CTEST_COMMAND|CPACK_COMMAND|ROOT)$")
      continue()
    endif()
    string(FIND "${value}" "${CMAKE_BINARY_DIR}" in_build)
    string(FIND "${value}" "${CMAKE_SOURCE_DIR}" in_source)
    if(NOT in_build EQUAL -1 OR NOT in_source EQUAL -1 OR value MATCHES "\\]==\\]")
      continue()
    endif()
    if(type STREQUAL "UNINITIALIZED")
      set(type STRING)
    endif()
    string(APPEND script "set(${name} [==[${value}]==] CACHE ${type} \"\")\n")
  endforeach()
  file(WRITE ${path}.tmp "${script}")
  file(RENAME ${path}.tmp ${path})
endfunction()

# Writes the manifest(s) registered for this configure: called once, deferred to the end of the
# top-level directory, when every target and directory flag is final.
function(_costgate_write_manifests)
  get_property(manifests GLOBAL PROPERTY COSTGATE_MANIFESTS)
  foreach(manifest IN LISTS manifests)
    string(MAKE_C_IDENTIFIER "${manifest}" key)
    get_property(entries GLOBAL PROPERTY COSTGATE_ENTRIES_${key})
    get_property(opt_flags GLOBAL PROPERTY COSTGATE_OPT_${key})
    get_property(native GLOBAL PROPERTY COSTGATE_NATIVE_${key})
    get_property(version GLOBAL PROPERTY COSTGATE_VERSION)
    set(head "# costgate scenario manifest: written by the build, read by gate\n")
    string(APPEND head "costgate ${version}\n")
    string(APPEND head "compiler ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}\n")
    string(APPEND head "flags ${opt_flags}\n")
    set(lines "${head}")
    set(native_lines "${head}")
    foreach(entry IN LISTS entries)
      string(REPLACE "=" ";" parts "${entry}")
      list(GET parts 0 name)
      list(GET parts 1 target)
      string(APPEND lines "scenario ${name} $<TARGET_FILE:${target}>\n")
      _costgate_build_line(build ${name} ${target})
      string(APPEND lines "${build}")
      if(native)
        string(APPEND native_lines "scenario ${name} $<TARGET_FILE:${target}_native>\n")
      endif()
    endforeach()
    file(GENERATE OUTPUT ${manifest} CONTENT "${lines}")
    if(native)
      get_filename_component(manifest_dir ${manifest} DIRECTORY)
      file(GENERATE OUTPUT ${manifest_dir}/native/manifest.txt CONTENT "${native_lines}")
    endif()
  endforeach()
  _costgate_configure_script(${CMAKE_BINARY_DIR}/costgate-configure.cmake)
endfunction()

function(costgate_add_scenarios)
  cmake_parse_arguments(ARG "" "MANIFEST;OUTPUT_DIR" "SOURCES;LIBRARIES;COMPILE_OPTIONS;OPT_FLAGS"
                        ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "costgate_add_scenarios: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "costgate_add_scenarios: no SOURCES")
  endif()
  if(NOT ARG_MANIFEST)
    set(ARG_MANIFEST ${CMAKE_BINARY_DIR}/scenarios/manifest.txt)
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_BINARY_DIR}/scenarios)
  endif()
  if(NOT DEFINED ARG_OPT_FLAGS)
    set(ARG_OPT_FLAGS ${COSTGATE_OPT_FLAGS})
  endif()
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  _costgate_debug_options(debug_options
    "${ARG_OPT_FLAGS} ${ARG_COMPILE_OPTIONS} ${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${build_type}}")
  foreach(flags IN ITEMS "${ARG_OPT_FLAGS}" "${ARG_COMPILE_OPTIONS}" "${CMAKE_C_FLAGS}"
                         "${CMAKE_C_FLAGS_${build_type}}")
    if(flags MATCHES "-march=native|-mtune=native")
      message(FATAL_ERROR "costgate: scenarios must not be built with -march=native "
        "(valgrind cannot run what a newer CPU advertises, and counts would not travel): ${flags}")
    endif()
  endforeach()
  get_property(manifests GLOBAL PROPERTY COSTGATE_MANIFESTS)
  if(ARG_MANIFEST IN_LIST manifests)
    message(FATAL_ERROR "costgate_add_scenarios: the manifest ${ARG_MANIFEST} is written by an "
      "earlier call already: give each call its own MANIFEST")
  endif()
  string(MAKE_C_IDENTIFIER "${ARG_MANIFEST}" key)
  set(entries "")
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(name ${source} NAME_WE)
    if(NOT name MATCHES "^[a-z0-9_]+$")
      message(FATAL_ERROR "costgate: scenario '${name}' (${source}): names are [a-z0-9_]+")
    endif()
    set(target scenario_${name})
    add_executable(${target} ${source})
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${name}
      RUNTIME_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
    target_compile_options(${target} PRIVATE ${ARG_COMPILE_OPTIONS} ${ARG_OPT_FLAGS}
      ${debug_options})
    target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} costgate::harness)
    list(APPEND entries "${name}=${target}")
    if(TARGET costgate::harness_native)
      add_executable(${target}_native ${source})
      set_target_properties(${target}_native PROPERTIES OUTPUT_NAME ${name}
        RUNTIME_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR}/native)
      target_compile_options(${target}_native PRIVATE ${ARG_COMPILE_OPTIONS} ${ARG_OPT_FLAGS}
        ${debug_options})
      target_link_libraries(${target}_native PRIVATE costgate::harness_native ${ARG_LIBRARIES})
    endif()
  endforeach()
  string(REPLACE ";" " " opt_text "${ARG_OPT_FLAGS};${debug_options}")
  string(STRIP "${opt_text}" opt_text)
  set_property(GLOBAL APPEND PROPERTY COSTGATE_MANIFESTS ${ARG_MANIFEST})
  set_property(GLOBAL PROPERTY COSTGATE_ENTRIES_${key} ${entries})
  set_property(GLOBAL PROPERTY COSTGATE_OPT_${key} "${opt_text}")
  if(TARGET costgate::harness_native)
    set_property(GLOBAL PROPERTY COSTGATE_NATIVE_${key} TRUE)
  endif()
  get_property(deferred GLOBAL PROPERTY COSTGATE_DEFERRED)
  if(NOT deferred)
    set_property(GLOBAL PROPERTY COSTGATE_DEFERRED TRUE)
    cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _costgate_write_manifests)
  endif()
endfunction()

cmake_policy(POP)
