#!/usr/bin/env bash
# The .deb as a user meets it. `build` runs cpack once on the build tree's binaries; every
# other check reads that package. Exit 77: skipped, the reason on stdout.
# Environment (set by CMake): FAULTLINE_PACKAGE_DIR FAULTLINE_BUILD_DIR FAULTLINE_VERSION
# FAULTLINE_APP_ID FAULTLINE_XVFB_RUN.
set -euo pipefail

check=$1
dir=$FAULTLINE_PACKAGE_DIR
arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
deb=$dir/faultline_${FAULTLINE_VERSION}_${arch}.deb
id=$FAULTLINE_APP_ID

skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || skip "$1 is not installed (${2:-apt-get install $1})"; }
need_package() { [ -f "$deb" ] || skip "no package at $deb: package_build did not make one"; }

# What the package must hold: binaries, sample run, desktop integration, docs.
expected=(
  ./usr/bin/faultline
  ./usr/bin/faultline-cli
  ./usr/share/faultline/sample.faultline
  "./usr/share/applications/$id.desktop"
  ./usr/share/icons/hicolor/scalable/apps/faultline.svg
  ./usr/share/icons/hicolor/scalable/mimetypes/application-x-faultline-run.svg
  ./usr/share/icons/hicolor/16x16/apps/faultline.png
  ./usr/share/icons/hicolor/24x24/apps/faultline.png
  ./usr/share/icons/hicolor/32x32/apps/faultline.png
  ./usr/share/icons/hicolor/48x48/apps/faultline.png
  ./usr/share/icons/hicolor/64x64/apps/faultline.png
  ./usr/share/icons/hicolor/128x128/apps/faultline.png
  ./usr/share/icons/hicolor/256x256/apps/faultline.png
  ./usr/share/icons/hicolor/512x512/apps/faultline.png
  ./usr/share/mime/packages/faultline.xml
  "./usr/share/metainfo/$id.metainfo.xml"
  ./usr/share/man/man1/faultline.1.gz
  ./usr/share/man/man1/faultline-cli.1.gz
  ./usr/share/bash-completion/completions/faultline-cli
  ./usr/share/doc/faultline/copyright
  ./usr/share/doc/faultline/changelog.gz
  ./usr/share/doc/faultline/README.md
  ./usr/share/doc/faultline/docs/formats.md
)

# The package unpacked once per check that needs its files.
unpack() {
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  dpkg-deb -x "$deb" "$root"
}

case $check in
  build)
    need dpkg-deb "apt-get install dpkg"
    need dpkg-shlibdeps "apt-get install dpkg-dev"
    rm -rf "$dir" && mkdir -p "$dir"
    # gzip rather than the release's xz: the same package, made faster for a test.
    cpack --config "$FAULTLINE_BUILD_DIR/CPackConfig.cmake" -G DEB -B "$dir" \
      -D CPACK_DEBIAN_COMPRESSION_TYPE=gzip > "$dir/cpack.log" 2>&1 || { cat "$dir/cpack.log"; fail "cpack failed"; }
    [ -f "$deb" ] || { cat "$dir/cpack.log"; fail "cpack made no $deb"; }
    echo "built $deb ($(du -h "$deb" | cut -f1))"
    ;;
  contents)
    need dpkg-deb; need_package
    listing=$(dpkg-deb --contents "$deb" | awk '{print $6}')
    missing=0
    for f in "${expected[@]}"; do
      grep -qxF -- "$f" <<< "$listing" || { echo "missing from the package: $f"; missing=1; }
    done
    # Nothing from the build tree or the tests: every file under /usr, no test binaries.
    if grep -vE '^\./usr(/|$)|^\./$' <<< "$listing"; then fail "files outside /usr (above)"; fi
    if grep -E 'test|bench' <<< "$listing" | grep -v '^./usr/share/doc/'; then fail "test or benchmark files packaged (above)"; fi
    [ $missing -eq 0 ] || fail "files missing"
    echo "all ${#expected[@]} expected files present"
    ;;
  depends)
    need dpkg-deb; need_package
    fields=$(dpkg-deb --field "$deb" Package Version Architecture Maintainer Depends Section Description)
    echo "$fields"
    depends=$(dpkg-deb --field "$deb" Depends)
    # Computed from the binaries by dpkg-shlibdeps, plus what Qt loads at run time.
    for lib in libqt6widgets6 libqt6charts6 libqt6openglwidgets6 libvtk9.1 libsqlite3-0 libsimdjson14 zlib1g libzstd1 liblzma5 libbz2-1.0 libc6 libstdc++6 qt6-qpa-plugins; do
      [[ ", $depends," == *", $lib "* || ", $depends," == *", $lib,"* ]] || fail "Depends lacks $lib"
    done
    [ "$(dpkg-deb --field "$deb" Version)" = "$FAULTLINE_VERSION" ] || fail "Version is not $FAULTLINE_VERSION"
    ;;
  lintian)
    need lintian; need_package
    # Errors fail the check; warnings are printed (packaging/README.md lists them and why).
    out=$(lintian --fail-on error --display-level ">=warning" --tag-display-limit 0 "$deb" 2>&1) || { echo "$out"; fail "lintian reports errors"; }
    echo "${out:-lintian: no errors, no warnings}"
    ;;
  desktop_validate)
    need desktop-file-validate "apt-get install desktop-file-utils"; need dpkg-deb; need_package
    unpack
    desktop-file-validate "$root/usr/share/applications/$id.desktop"
    grep -qx 'MimeType=application/x-faultline-run;' "$root/usr/share/applications/$id.desktop" || fail "the desktop entry does not open run files"
    echo "desktop-file-validate: $id.desktop valid"
    ;;
  appstream_validate)
    need appstreamcli "apt-get install appstream"; need dpkg-deb; need_package
    unpack
    appstreamcli validate --no-net --explain "$root/usr/share/metainfo/$id.metainfo.xml"
    ;;
  runs)
    need dpkg-deb; need_package
    unpack
    export HOME=$root/home XDG_CACHE_HOME=$root/cache XDG_CONFIG_HOME=$root/config
    mkdir -p "$HOME"
    version=$("$root/usr/bin/faultline-cli" --version)
    echo "$version"
    head -1 <<< "$version" | grep -qx "faultline-cli $FAULTLINE_VERSION" || fail "faultline-cli --version says: $version"
    "$root/usr/bin/faultline-cli" summary "$root/usr/share/faultline/sample.faultline" | head -3
    [ -n "$FAULTLINE_XVFB_RUN" ] || skip "xvfb-run is not installed (apt-get install xvfb): cannot render the screenshot"
    # No run named: the app opens the sample run it finds under its own prefix.
    QT_QPA_PLATFORM=xcb "$FAULTLINE_XVFB_RUN" -a -s "-screen 0 1920x1200x24" \
      "$root/usr/bin/faultline" --screenshot "$root/shot.png" --size 1280x800
    [ -f "$root/shot.png" ] || fail "no screenshot written"
    # PNG header: width and height, big-endian, at bytes 16-23.
    size=$(od -An -tu1 -j16 -N8 "$root/shot.png" | awk '{print $3*256+$4 "x" $7*256+$8}')
    [ "$size" = "1280x800" ] || fail "screenshot is $size, not 1280x800"
    bytes=$(stat -c %s "$root/shot.png")
    [ "$bytes" -gt 40000 ] || fail "screenshot is only $bytes bytes: nothing drawn"
    [ ! -e "$XDG_CACHE_HOME/Faultline" ] || fail "the app simulated a sample run of its own instead of using the installed one"
    if [ -n "${FAULTLINE_TEST_SHOTS:-}" ]; then mkdir -p "$FAULTLINE_TEST_SHOTS" && cp "$root/shot.png" "$FAULTLINE_TEST_SHOTS/package-sample-run.png"; fi
    echo "the unpacked package rendered its sample run: $size, $bytes bytes"
    ;;
  *)
    fail "unknown check $check"
    ;;
esac
