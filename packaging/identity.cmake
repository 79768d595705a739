# The names Faultline is installed under, shared by the app (its desktop file name), the
# desktop integration files (resources/) and the package (packaging/). Packagers override them
# with -D...; the defaults are the project's own.
include(GNUInstallDirs)
set(FAULTLINE_APP_ID "org.faultline.Faultline" CACHE STRING
    "Reverse-DNS id: the AppStream component id and the installed .desktop file's name")
set(FAULTLINE_HOMEPAGE "https://faultline.example.org" CACHE STRING
    "The project's home page: AppStream homepage, bug tracker (/issues) and screenshots (/raw/main/docs/)")
set(FAULTLINE_LICENSE "MIT" CACHE STRING "SPDX licence of Faultline itself")
set(FAULTLINE_PACKAGE_MAINTAINER "Faultline maintainers <maintainers@faultline.example.org>" CACHE STRING
    "The Maintainer field of the .deb")
# Where the installed app finds its sample run, icons and documentation, relative to the
# directory of its executable, so the same binary works from the build tree and the prefix.
file(RELATIVE_PATH FAULTLINE_BIN_TO_DATA "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${CMAKE_INSTALL_DATADIR}")
set(FAULTLINE_DOC_DIR "${CMAKE_INSTALL_DATADIR}/doc/faultline")
# Installing and packaging take the binaries as built: the package workflow preset builds
# first, and the test suite's package check must not rebuild binaries other tests are running.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
