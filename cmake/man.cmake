# man.cmake - turn one markdown document into one manual page (cmake -P).
# The markdown is the only source: its first "# title" line gives way to a
# man title block, its NAME paragraph ("`x` — what it does") becomes the
# "x - what it does" line that whatis and apropos read, and the rest goes
# through go-md2man unchanged, so a page never drifts from its document.
# Tables are made to wrap (man-tables.awk); the page is gzipped (policy).
# -DMD2MAN=go-md2man -DSRC=doc.md -DOUT=name.N -DNAME=name -DSECTION=N -DVERSION=x.y.z
# [-DWHATIS="what it is"] for a document that has no NAME section
file(READ "${SRC}" text)
string(REGEX REPLACE "^# [^\n]*\n" "" text "${text}")
if(WHATIS)
  # a document without a NAME section (maps/README.md): the caller says it
  set(text "## NAME\n\n${NAME} - ${WHATIS}\n\n## DESCRIPTION\n\n${text}")
else()
  string(REGEX MATCH "## NAME\n\n[^\n]*( —|—) ([^\n]*(\n[^\n]+)*)" name_par "${text}")
  if(NOT name_par)
    message(FATAL_ERROR "${SRC}: no NAME paragraph of the form 'name — what it does'")
  endif()
  string(REPLACE "${name_par}" "## NAME\n\n${NAME} - ${CMAKE_MATCH_2}" text "${text}")
endif()
string(TOUPPER "${NAME}" title)
set(text "% ${title} ${SECTION} \"\" \"iiowire ${VERSION}\" \"iiowire manual\"\n${text}")
file(WRITE "${OUT}.md" "${text}")
execute_process(COMMAND "${MD2MAN}" -in "${OUT}.md" -out "${OUT}.roff" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "go-md2man failed on ${SRC}")
endif()
execute_process(COMMAND awk -f "${CMAKE_CURRENT_LIST_DIR}/man-tables.awk" "${OUT}.roff"
                OUTPUT_FILE "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "awk failed on ${OUT}.roff")
endif()
execute_process(COMMAND gzip -9nf "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed on ${OUT}")
endif()
