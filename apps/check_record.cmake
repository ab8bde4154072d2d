# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs an app and checks that what it wrote holds every wanted text:
#   cmake -DAPP=gputurbo-bench -DARGS="--K|40|--json|out.json" -DJSON=out.json
#         -DWANT="\"subblocks\": 1,|\"batch\": 64," -P check_record.cmake
# '|' separates the items of ARGS and WANT; without JSON, the app's stdout is checked.

string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" wants "${WANT}")
execute_process(COMMAND ${APP} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${APP} ${args}: exit status ${rc}")
endif()
if(JSON)
    file(READ ${JSON} out)
endif()
foreach(want IN LISTS wants)
    string(FIND "${out}" "${want}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "${APP} ${args}: no '${want}' in:\n${out}")
    endif()
endforeach()
