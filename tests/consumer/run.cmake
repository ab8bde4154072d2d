# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# cmake -DBUILD=<gr-gputurbo build> -DSOURCE=<this folder> -DWORK=<scratch>
#       [-DPYTHON=<configured Python>] -P run.cmake
# Installs the build into WORK/root (DESTDIR), then builds and runs the consumer project
# there with find_package(gnuradio-gputurbo), and compiles it once more with
# `pkg-config gputurbo-engine`; runs the installed gputurbo-plot as a program. Fails on
# the first step that does.

function(run what)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
        ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
    endif()
    message(STATUS "${what}: ok")
    set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(STRINGS ${BUILD}/CMakeCache.txt prefix REGEX "^CMAKE_INSTALL_PREFIX:PATH=")
string(REGEX REPLACE "^CMAKE_INSTALL_PREFIX:PATH=" "" prefix "${prefix}")
set(root ${WORK}/root${prefix})

run("install" ${CMAKE_COMMAND} -E env DESTDIR=${WORK}/root
    ${CMAKE_COMMAND} --install ${BUILD})
run("configure the consumer" ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build
    -DCMAKE_PREFIX_PATH=${root})
run("build the consumer" ${CMAKE_COMMAND} --build ${WORK}/build)
file(GLOB libdirs ${root}/lib ${root}/lib/*-linux-gnu)
string(REPLACE ";" ":" libpath "${libdirs}")
run("run the consumer" ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libpath}
    ${WORK}/build/consumer)
message(STATUS "${last_output}")

# The engine alone through pkg-config (its .pc names the real prefix: redefine it).
file(GLOB_RECURSE pc ${root}/gputurbo-engine.pc)
get_filename_component(pcdir "${pc}" DIRECTORY)
run("pkg-config" ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pcdir}
    pkg-config --define-variable=prefix=${root} --cflags --libs gputurbo-engine)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run("compile with pkg-config" c++ -std=c++17 ${SOURCE}/main.cc ${flags}
    -o ${WORK}/consumer-pkg-config)
run("run the pkg-config build" ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libpath}
    ${WORK}/consumer-pkg-config)

# The installed gputurbo-plot, run as a program, finds matplotlib wherever the configured
# Python has it, whatever python3 comes first on PATH.
if(PYTHON)
    execute_process(COMMAND ${PYTHON} -c "import matplotlib" RESULT_VARIABLE no_matplotlib
        OUTPUT_QUIET ERROR_QUIET)
    if(no_matplotlib)
        message(STATUS "no matplotlib for ${PYTHON}: the installed gputurbo-plot not run")
    else()
        run("run the installed gputurbo-plot" ${root}/bin/gputurbo-plot --check)
    endif()
endif()
