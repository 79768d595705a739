# The hardening Debian builds its own packages with (dpkg-buildflags): fortified libc calls and
# read-only relocations bound at start, for the optimised builds that get packaged. Debug
# builds are left alone (_FORTIFY_SOURCE needs optimisation).
add_compile_definitions($<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:_FORTIFY_SOURCE=2>)
add_compile_options($<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-fstack-protector-strong>)
add_link_options($<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:LINKER:-z,relro,-z,now>)
