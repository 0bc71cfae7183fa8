# What `cmake --install` puts under the prefix, and the same files as a Debian package:
#   bin/gate
#   include/costgate/{harness,queue}.h, included as <costgate/harness.h>
#   include/costgate/compat/{harness,queue}.h, the deprecated "harness.h" of the old names
#   lib/pkgconfig/costgate.pc (pkg-config --cflags --libs costgate, for builds without CMake)
#   lib/libcostgate_harness.a, lib/costgate/native/*.o (with gperftools)
#   with gperftools also lib/libcostgate_harness_native.a and lib/pkgconfig/costgate-native.pc,
#   the native harness for builds without CMake
#   lib/cmake/costgate/ (costgateConfig.cmake, its version file, the targets, costgate.cmake)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(COSTGATE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/costgate)

install(TARGETS gate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/costgate/harness.h
              ${PROJECT_SOURCE_DIR}/include/costgate/queue.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/costgate)
install(FILES ${PROJECT_SOURCE_DIR}/scenarios/harness.h ${PROJECT_SOURCE_DIR}/scenarios/queue.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/costgate/compat)
install(TARGETS costgate_harness EXPORT costgateTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT costgateTargets NAMESPACE costgate:: DESTINATION ${COSTGATE_CMAKE_DIR})
if(TARGET costgate_harness_native)
  install(TARGETS costgate_harness_native EXPORT costgateNativeTargets
          OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/costgate/native)
  install(EXPORT costgateNativeTargets NAMESPACE costgate:: DESTINATION ${COSTGATE_CMAKE_DIR})
  install(TARGETS costgate_harness_native_archive ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

# The pkg-config module, its paths relative to its own directory (${pcfiledir}) so that
# `cmake --install --prefix` anywhere gives a working file.
file(RELATIVE_PATH COSTGATE_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/costgate.pc.in ${PROJECT_BINARY_DIR}/costgate.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/costgate.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET costgate_harness_native_archive)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/costgate-native.pc.in
    ${PROJECT_BINARY_DIR}/costgate-native.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/costgate-native.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/costgateConfig.cmake.in
  ${PROJECT_BINARY_DIR}/costgateConfig.cmake INSTALL_DESTINATION ${COSTGATE_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
# 0.x: a minor version may change the manifest or the results; 0.2 accepts 0.2.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/costgateConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/costgateConfig.cmake
              ${PROJECT_BINARY_DIR}/costgateConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/costgate.cmake
        DESTINATION ${COSTGATE_CMAKE_DIR})

if(NOT COSTGATE_TOP_LEVEL)
  return() # inside another project, its own packaging decides
endif()
set(CPACK_PACKAGE_NAME costgate)
set(CPACK_PACKAGE_VENDOR costgate)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Instruction and allocation cost gate for C pull requests")
set(CPACK_PACKAGE_CONTACT "costgate maintainers <costgate@invalid>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "valgrind, libcjson1, libdw1, libelf1, git, cmake, gcc")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgoogle-perftools-dev, google-perftools")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
include(CPack)
