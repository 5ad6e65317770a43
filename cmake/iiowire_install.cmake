# iiowire_install.cmake - how iiowire installs: run paths, manual pages and
# the Debian packages (CPack). Included by the top-level CMakeLists.txt
# before the folders, which add their files to the components named here:
#   daemon  -> package iiowire         (iiowired, unit, /etc/iiowire, maps)
#   tools   -> package iiowire-tools   (iiowire, iiowire-hwmon, iiowire-board)
#   mqtt    -> package iiowire-mqtt    (iiowire-mqtt, its unit)
#   exporter -> package iiowire-exporter (iiowire-exporter, its unit)
#   lib     -> package libiiowire0     (the shared library)
#   dev     -> package libiiowire-dev  (header, pkg-config, static library)

# Installed programs find libiiowire next to themselves in any prefix
# (/opt/iiowire, ~/.local) without ldconfig; in the system's own library
# directory (the packages' /usr) they need no run path, and carry none.
list(FIND CMAKE_C_IMPLICIT_LINK_DIRECTORIES "${CMAKE_INSTALL_FULL_LIBDIR}" IIOWIRE_LIBDIR_IS_SYSTEM)
if(IIOWIRE_LIBDIR_IS_SYSTEM EQUAL -1)
  file(RELATIVE_PATH IIOWIRE_BIN_TO_LIB ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
  set(CMAKE_INSTALL_RPATH "$ORIGIN/${IIOWIRE_BIN_TO_LIB}")
endif()

# /etc for the packages (prefix /usr, as GNUInstallDirs has it); else
# PREFIX/etc, relative, so that `cmake --install --prefix DIR` stays in DIR
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(IIOWIRE_SYSCONF_DEST ${CMAKE_INSTALL_FULL_SYSCONFDIR})
else()
  set(IIOWIRE_SYSCONF_DEST ${CMAKE_INSTALL_SYSCONFDIR})
endif()

# ---- manual pages, each made from one markdown document ----
find_program(IIOWIRE_MD2MAN go-md2man)
option(IIOWIRE_MANPAGES "Build and install the manual pages (needs go-md2man)" ON)
if(IIOWIRE_MANPAGES AND NOT IIOWIRE_MD2MAN)
  message(FATAL_ERROR "go-md2man not found (Debian: apt-get install go-md2man); "
                      "or configure with -DIIOWIRE_MANPAGES=OFF")
endif()
add_custom_target(iiowire_manpages ALL)

# iiowire_man(SRC NAME SECTION COMPONENT [WHATIS]): SRC (markdown, relative
# to the calling folder) becomes NAME.SECTION.gz in man/manSECTION of
# COMPONENT; WHATIS is the NAME line's text for a document without one.
function(iiowire_man src name section component)
  set(whatis "${ARGN}")
  if(NOT IIOWIRE_MANPAGES)
    return()
  endif()
  set(out ${PROJECT_BINARY_DIR}/man/${name}.${section})
  set(gz ${out}.gz)
  add_custom_command(OUTPUT ${gz}
    COMMAND ${CMAKE_COMMAND} -DMD2MAN=${IIOWIRE_MD2MAN} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/${src}
            -DOUT=${out} -DNAME=${name} -DSECTION=${section} -DVERSION=${PROJECT_VERSION}
            "-DWHATIS=${whatis}"
            -P ${PROJECT_SOURCE_DIR}/cmake/man.cmake
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${src} ${PROJECT_SOURCE_DIR}/cmake/man.cmake
            ${PROJECT_SOURCE_DIR}/cmake/man-tables.awk
    COMMENT "Manual page ${name}(${section})")
  add_custom_target(iiowire_man_${name}_${section} DEPENDS ${gz})
  add_dependencies(iiowire_manpages iiowire_man_${name}_${section})
  install(FILES ${gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section} COMPONENT ${component})
endfunction()

# ---- Debian packages: cpack -G DEB in the build tree ----
set(CPACK_PACKAGE_NAME iiowire)
set(CPACK_PACKAGE_VENDOR "iiowire")
# who the packages name as their maintainer: set it to a real address
set(IIOWIRE_DEB_MAINTAINER "iiowire developers <iiowire@localhost>" CACHE STRING
  "Maintainer of the Debian packages (name <address>)")
set(CPACK_PACKAGE_CONTACT "${IIOWIRE_DEB_MAINTAINER}")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://iiowire.invalid/")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL daemon tools lib dev mqtt exporter)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
# the tools link libiiowire of this very build (the lib package)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/client)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})

set(CPACK_DEBIAN_DAEMON_PACKAGE_NAME iiowire)
set(CPACK_DEBIAN_DAEMON_PACKAGE_SECTION net)
# the unit's ExecReload runs /bin/kill, which minimal systems lack; --http-listen's
# libwebsockets loads its libuv event-loop plugin at run time (no shlibdeps can see it)
set(CPACK_DEBIAN_DAEMON_PACKAGE_DEPENDS "procps, libwebsockets-evlib-uv")
set(CPACK_COMPONENT_DAEMON_DESCRIPTION
  "network server for Linux IIO sensors\niiowired serves IIO devices (its own userspace drivers over /dev/i2c-N\nand spidev, and emulated chips) with the kernel's sysfs names, over a\ntext/JSON line protocol and an iiod-compatible listener for libiio.")
set(CPACK_DEBIAN_DAEMON_PACKAGE_CONTROL_EXTRA
  "${PROJECT_SOURCE_DIR}/server/deb/conffiles;${PROJECT_SOURCE_DIR}/server/deb/postinst;${PROJECT_SOURCE_DIR}/server/deb/prerm;${PROJECT_SOURCE_DIR}/server/deb/postrm")
set(CPACK_DEBIAN_DAEMON_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME iiowire-tools)
set(CPACK_COMPONENT_TOOLS_DEPENDS lib)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
  "command line, hwmon bridge and board tool for iiowire\niiowire talks to iiowired; iiowire-hwmon presents a remote consumer as an\nhwmon device for lm-sensors and the node exporter; iiowire-board prints a\nboard file's devices as sysfs would.")

set(CPACK_DEBIAN_MQTT_PACKAGE_NAME iiowire-mqtt)
set(CPACK_DEBIAN_MQTT_PACKAGE_SECTION net)
set(CPACK_COMPONENT_MQTT_DEPENDS lib)
set(CPACK_COMPONENT_MQTT_DESCRIPTION
  "MQTT bridge for iiowire, with Home Assistant discovery\niiowire-mqtt publishes the consumer channels of an iiowired to an MQTT\nbroker (values in their units, on change), with Home Assistant discovery\nconfigs and command topics for chosen writable attributes.")
set(CPACK_DEBIAN_EXPORTER_PACKAGE_NAME iiowire-exporter)
set(CPACK_DEBIAN_EXPORTER_PACKAGE_SECTION net)
set(CPACK_COMPONENT_EXPORTER_DEPENDS lib)
set(CPACK_COMPONENT_EXPORTER_DESCRIPTION
  "Prometheus exporter for iiowire\niiowire-exporter serves the consumer channels of one iiowired on /metrics,\nor of any daemon on /probe (the multi-target exporter pattern).")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libiiowire0)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA "${PROJECT_SOURCE_DIR}/server/deb/triggers")
set(CPACK_COMPONENT_LIB_DESCRIPTION
  "client library for iiowire\nlibiiowire reaches a remote iiowired with the shape of the kernel's IIO\nconsumer API.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libiiowire-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "client library for iiowire (development files)\nThe header, pkg-config file, static library and manual of libiiowire.")

# /usr/share/doc/<package>/{copyright,changelog.Debian.gz} for each package (Debian policy 12.5, 12.7)
function(iiowire_package_docs component package)
  install(FILES ${PROJECT_SOURCE_DIR}/server/deb/copyright
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
  install(FILES ${PROJECT_BINARY_DIR}/deb/changelog.Debian.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endfunction()
string(TIMESTAMP IIOWIRE_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${PROJECT_SOURCE_DIR}/server/deb/changelog.in ${PROJECT_BINARY_DIR}/deb/changelog.Debian @ONLY)
execute_process(COMMAND gzip -9nf ${PROJECT_BINARY_DIR}/deb/changelog.Debian)
iiowire_package_docs(daemon iiowire)
iiowire_package_docs(tools iiowire-tools)
iiowire_package_docs(lib libiiowire0)
iiowire_package_docs(dev libiiowire-dev)
iiowire_package_docs(mqtt iiowire-mqtt)
iiowire_package_docs(exporter iiowire-exporter)

include(CPack)
