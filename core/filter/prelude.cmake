# core/filter/prelude.cmake: embeds prelude.jq in the build. A CMake project include()s this file and calls
# jview_embed_prelude(TARGET): a rule then writes <build dir>/generated/prelude_jq.inc, the text of prelude.jq as
# one C++ raw string literal, which prelude.cpp includes; the rule runs this same file as a script
# (`cmake -DIN=... -DOUT=... -P prelude.cmake`) whenever prelude.jq changes.
if(CMAKE_SCRIPT_MODE_FILE)
  file(READ "${IN}" text)
  string(FIND "${text}" ")jq\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${IN} contains the raw string delimiter )jq\"")
  endif()
  get_filename_component(name "${IN}" NAME)
  file(WRITE "${OUT}" "// Generated from ${name} by prelude.cmake: do not edit.\nR\"jq(${text})jq\"\n")
  return()
endif()

function(jview_embed_prelude target)
  get_filename_component(dir "${CMAKE_CURRENT_FUNCTION_LIST_FILE}" DIRECTORY)
  set(inc "${CMAKE_CURRENT_BINARY_DIR}/generated/prelude_jq.inc")
  add_custom_command(OUTPUT "${inc}"
    COMMAND ${CMAKE_COMMAND} "-DIN=${dir}/prelude.jq" "-DOUT=${inc}" -P "${CMAKE_CURRENT_FUNCTION_LIST_FILE}"
    DEPENDS "${dir}/prelude.jq" "${CMAKE_CURRENT_FUNCTION_LIST_FILE}" VERBATIM)
  target_sources(${target} PRIVATE "${inc}")
  target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_BINARY_DIR}/generated")
endfunction()
