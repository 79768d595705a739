#!/bin/sh
# Redraws every committed render baseline (tests/data/render and tests/data/render/screenshots)
# after a deliberate change to what the views draw: review the new PNGs with `git diff --stat`
# and an image viewer before committing them. Run from the repository root after building
# faultline_views_tests and faultline_app_tests (cmake --preset dev).
set -eu
bin=${1:-build/dev/bin}
export FAULTLINE_UPDATE_BASELINES=1 QT_QPA_PLATFORM=xcb
xvfb-run -a -s "-screen 0 1920x1200x24" "$bin/faultline_views_tests" --gtest_filter='RenderBaseline.*'
xvfb-run -a -s "-screen 0 1920x1200x24" "$bin/faultline_app_tests" --gtest_filter='Screenshots/ScreenshotBaseline.*'
