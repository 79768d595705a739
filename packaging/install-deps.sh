#!/usr/bin/env bash
# Installs everything Faultline needs to build, test and run, from Debian 12 packages only.
# Idempotent and non-interactive: packages already present are left as they are.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl1-mesa-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
  libvtk9-dev
  libsqlite3-dev nlohmann-json3-dev libsimdjson-dev zlib1g-dev
  # Compressed logs: zstd, xz and bzip2 (importers/text/byte_source.cpp).
  libzstd-dev liblzma-dev libbz2-dev
  # Pulls from Prometheus servers over HTTP(S) (remote/): libcurl with OpenSSL.
  libcurl4-openssl-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  xvfb xauth mesa-utils libgl1-mesa-dri
  # Checks of the .deb and its desktop files (tests/packaging): the package tools, the
  # validators Debian and software centres use, the MIME database a file manager reads.
  dpkg-dev lintian desktop-file-utils appstream shared-mime-info
  # Reading exported files back in tests: pdfinfo/pdftotext, ffprobe.
  poppler-utils ffmpeg
  # The check that no product function is over 120 lines (tests/docs) measures them with ctags.
  universal-ctags
  # The libFuzzer harnesses (fuzz/, the fuzz preset) need clang and its sanitizer runtimes;
  # lld links every preset's executables (CMakeLists.txt), several times faster than GNU ld.
  clang libclang-rt-14-dev lld
  # The Slurm array test (tests/slurm) submits the sbatch script to a private one-node cluster.
  slurm-wlm
  # The pull's tests and benchmark start Debian's prometheus binary (2.42) themselves on a
  # history promtool backfills; the service the package sets up is never used.
  prometheus
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
