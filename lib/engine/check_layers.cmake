# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The engine's include graph against its floors (lib/engine/CMakeLists.txt), run as a
# test: cmake -DSOURCE=<repository> -DFLOORS=core,turbo,... -DUSES_<floor>=core,...
#   -P check_layers.cmake
# A file of floor F (lib/engine/F/..., include/gnuradio/gputurbo/engine/F/...) may include
#   - by a path relative to itself, files of its own folder lib/engine/F only;
#   - "core/..." (the core's private headers);
#   - <gnuradio/gputurbo/engine/G/...> for the floors G that USES_F lists;
#   - nothing else of GNU Radio or pybind11.
# Each breach is printed as file:line; the test fails when there is one.

cmake_minimum_required(VERSION 3.18)
set(breaches 0)
string(REPLACE "," ";" FLOORS "${FLOORS}")
foreach(floor IN LISTS FLOORS)
    string(REPLACE "," ";" USES_${floor} "${USES_${floor}}")
endforeach()

function(breach file line text why)
    file(RELATIVE_PATH shown ${SOURCE} ${file})
    message("${shown}:${line}: ${text}: ${why}")
    math(EXPR n "${breaches} + 1")
    set(breaches ${n} PARENT_SCOPE)
endfunction()

function(check_file file floor own_dir)
    file(STRINGS ${file} lines)
    set(number 0)
    foreach(text IN LISTS lines)
        math(EXPR number "${number} + 1")
        if(NOT text MATCHES "^[ \t]*#[ \t]*include[ \t]*([<\"])([^>\"]+)[>\"]")
            continue()
        endif()
        set(bracket ${CMAKE_MATCH_1})
        set(path ${CMAKE_MATCH_2})
        if(path MATCHES "^gnuradio/gputurbo/engine/([a-z]+)/")
            set(used ${CMAKE_MATCH_1})
            if(NOT used IN_LIST USES_${floor})
                list(JOIN USES_${floor} ", " allowed)
                breach(${file} ${number} "${path}"
                       "the ${floor} floor may use only the public headers of ${allowed}")
            endif()
        elseif(path MATCHES "^(gnuradio|pmt|pybind11)/")
            breach(${file} ${number} "${path}" "the engine uses no GNU Radio or pybind11")
        elseif(bracket STREQUAL "\"")
            get_filename_component(dir ${file} DIRECTORY)
            get_filename_component(target ${dir}/${path} ABSOLUTE)
            string(FIND "${target}" "${own_dir}/" at)
            if(EXISTS ${target})
                if(NOT own_dir OR NOT at EQUAL 0)
                    breach(${file} ${number} "${path}"
                           "a relative include leaves the ${floor} floor's folder")
                endif()
            elseif(NOT path MATCHES "^core/")
                breach(${file} ${number} "${path}" "the ${floor} floor may include \
the core's private headers as \"core/...\" and its own by relative paths, nothing else")
            endif()
        endif()
    endforeach()
    set(breaches ${breaches} PARENT_SCOPE)
endfunction()

foreach(floor IN LISTS FLOORS)
    file(GLOB_RECURSE private LIST_DIRECTORIES false
         ${SOURCE}/lib/engine/${floor}/*.h ${SOURCE}/lib/engine/${floor}/*.cc
         ${SOURCE}/lib/engine/${floor}/*.cu ${SOURCE}/lib/engine/${floor}/*.cuh)
    foreach(file IN LISTS private)
        check_file(${file} ${floor} ${SOURCE}/lib/engine/${floor})
    endforeach()
    file(GLOB_RECURSE public LIST_DIRECTORIES false
         ${SOURCE}/include/gnuradio/gputurbo/engine/${floor}/*.h)
    foreach(file IN LISTS public)
        check_file(${file} ${floor} "")
    endforeach()
endforeach()

if(breaches GREATER 0)
    message(FATAL_ERROR "${breaches} include(s) break the engine's floors")
endif()
message("the engine's includes keep to its floors (${FLOORS})")
