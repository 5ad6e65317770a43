# iiowire_tests.cmake - the tiers of the test suites, as ctest labels
# (tests/README.md, "Tiers"). Included by the top-level CMakeLists.txt
# before the folders; each folder labels the tests it adds:
#   unit - starts no daemon: the CUnit suites of the ABI, the core, the
#          drivers and chip models, the codecs, the board loader, and the
#          docs check (`ctest -L unit`; `tests/run.sh --quick`)
#   live - starts iiowired (or a bridge, a broker, a browser): the server
#          and client suites, the shell and Python tests
#   slow - besides unit or live: 10 s or more in the release build on two
#          cores (`ctest -LE slow` leaves them out)

# measured one at a time (ctest -j1, release): test_kernel_sh 58 s,
# test_server_acl 26, test_web_browser 20, test_firstrun_sh 17 (its first
# run builds build/demo too), test_mqtt_sh 15, test_gpio_sh 12,
# test_server_web 10; every other suite under 8 s
set(IIOWIRE_SLOW_TESTS
  test_kernel_sh test_server_acl test_web_browser test_firstrun_sh test_mqtt_sh test_gpio_sh
  test_server_web)

# iiowire_test_labels(KIND TEST...): label each TEST KIND (unit or live),
# and slow too if IIOWIRE_SLOW_TESTS names it
function(iiowire_test_labels kind)
  foreach(t ${ARGN})
    set(labels ${kind})
    if(t IN_LIST IIOWIRE_SLOW_TESTS)
      list(APPEND labels slow)
    endif()
    set_tests_properties(${t} PROPERTIES LABELS "${labels}")
  endforeach()
endfunction()
