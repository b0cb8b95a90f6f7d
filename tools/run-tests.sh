#!/bin/sh
# Runs the testsuite of the OVS tree OVS_DIR in two parts and prints one
# summary line, "N passed, N failed, N skipped", counted from autotest's
# logs:
#
#   1. the plugin's tests (hw-*.at), once: a failure is a failure;
#   2. the OVS suites the patches could break (the files named in
#      OVS_TEST_FILES), with OVS's own RECHECK convention: the tests that
#      fail are run once more, and a test that passes then counts as passed
#      and is named in the output as rechecked.  Some of these upstream
#      tests race with the revalidator under load (issue 16); the plugin's
#      own tests never get a second chance.
#
# usage: run-tests.sh OVS_DIR JOBS "OVS_TEST_FILES" [HW_TESTSUITEFLAGS]
set -u

ovs_dir=$1
jobs=$2
files=$3
hw_flags=${4:-}
tests=$ovs_dir/tests

# Test numbers whose file matches the basic regular expression $1.
numbers() {
    (cd "$tests" && ./testsuite -l) \
        | sed -n "s/^ *\([0-9][0-9]*\): \($1\)\.at:.*/\1/p" | tr '\n' ' '
}

# Lines "N. title (file.at:line): RESULT" of log $1 whose result is $2.
results() {
    grep -E "^[0-9]+\. .*\([a-z0-9-]+\.at:[0-9]+\): $2" "$1" 2>/dev/null
}

count() {
    results "$1" "$2" | wc -l
}

# How many of the $2 tests selected for the run of log $1 have no result:
# a testsuite that stopped early (a signal, a killed shell) says nothing
# of the tests it did not reach, and they must not pass unnoticed.
missing() {
    got=$(results "$1" '(ok|FAILED|skipped|expected failure)' | wc -l)
    echo $(( $2 > got ? $2 - got : 0 ))
}

run() {
    make --no-print-directory -C "$ovs_dir" check TESTSUITEFLAGS="$*"
}

hw_nums=$(numbers 'hw-[a-z0-9-]*')
up_nums=$(numbers "$(echo "$files" | sed 's/ /\\|/g')")
# An empty list would run the whole of OVS's testsuite.
if [ -z "$hw_nums" ] || [ -z "$up_nums" ]; then
    echo "run-tests.sh: no test of the plugin's or of $files found in" \
         "$tests/testsuite" >&2
    exit 1
fi
rm -f "$tests"/testsuite-hw.log "$tests"/testsuite-ovs.log \
      "$tests"/testsuite-recheck.log "$tests"/testsuite-summary.txt

status=0
echo "running the plugin's tests: $hw_nums"
run "-j$jobs $hw_nums $hw_flags" || status=1
cp "$tests/testsuite.log" "$tests/testsuite-hw.log"

rechecked=0
echo "running OVS's tests: $up_nums"
if ! run "-j$jobs $up_nums"; then
    cp "$tests/testsuite.log" "$tests/testsuite-ovs.log"
    failed=$(results "$tests/testsuite-ovs.log" FAILED \
             | sed 's/^\([0-9]*\)\..*/\1/' | tr '\n' ' ')
    echo "OVS's tests failed: $failed"
    echo "rechecking them once (OVS's RECHECK convention, upstream tests" \
         "only)"
    run "$failed" || status=1
    cp "$tests/testsuite.log" "$tests/testsuite-recheck.log"
    rechecked=$(count "$tests/testsuite-recheck.log" ok)
    results "$tests/testsuite-recheck.log" ok | sed 's/^/passed on recheck: /'
else
    cp "$tests/testsuite.log" "$tests/testsuite-ovs.log"
fi

passed=$(( $(count "$tests/testsuite-hw.log" ok)
           + $(count "$tests/testsuite-ovs.log" ok) + rechecked ))
failed=$(( $(count "$tests/testsuite-hw.log" FAILED)
           + $(count "$tests/testsuite-ovs.log" FAILED) - rechecked ))
skipped=$(( $(count "$tests/testsuite-hw.log" skipped)
            + $(count "$tests/testsuite-ovs.log" skipped) ))

# HW_TESTSUITEFLAGS may select fewer of the plugin's tests (-k).
not_run=$(missing "$tests/testsuite-ovs.log" $(echo $up_nums | wc -w))
if [ -z "$hw_flags" ]; then
    not_run=$(( not_run + $(missing "$tests/testsuite-hw.log" \
                                     $(echo $hw_nums | wc -w)) ))
fi
if [ "$not_run" -gt 0 ]; then
    echo "$not_run tests did not run: a testsuite stopped early; they" \
         "count as failed"
    failed=$(( failed + not_run ))
    status=1
fi
echo "$passed passed, $failed failed, $skipped skipped" \
    | tee "$tests/testsuite-summary.txt"
exit $status
