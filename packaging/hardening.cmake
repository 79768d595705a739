# The hardening Debian builds its own packages with (dpkg-buildflags): fortified libc calls and
# read-only relocations bound at start, for the optimised builds that get packaged (the release
# and package presets). Debug builds (_FORTIFY_SOURCE needs optimisation) and the sanitizer and
# fuzzing builds are left as they are.
add_compile_definitions($<$<CONFIG:Release,MinSizeRel>:_FORTIFY_SOURCE=2>)
add_compile_options($<$<CONFIG:Release,MinSizeRel>:-fstack-protector-strong>)
add_link_options($<$<CONFIG:Release,MinSizeRel>:LINKER:-z,relro,-z,now>)
