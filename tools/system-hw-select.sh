#!/bin/sh
# Prints the numbers of the tests of OVS_TESTS_DIR/system-hw-testsuite
# whose titles LIST names (one per line, '#' starts a comment line), for
# 'make check-system-hw-ci'.  A title the suite does not have is an error,
# so that a renamed test cannot leave the CI subset unnoticed.
#
# usage: system-hw-select.sh OVS_TESTS_DIR LIST
set -e
tests=$1
list=$2
all=$(cd "$tests" && ./system-hw-testsuite -l | grep -E '^ +[0-9]+:')
status=0
nums=
while IFS= read -r title; do
    case $title in
        ''|'#'*) continue ;;
    esac
    n=$(echo "$all" | awk -v t="$title" '{
            n = $1; sub(/:$/, "", n); $1 = ""; $2 = "";
            sub(/^ +/, ""); sub(/ +$/, "");
            if ($0 == t) { print n }
        }')
    if [ -z "$n" ]; then
        echo "system-hw-select.sh: no test \"$title\" in system-hw-testsuite" >&2
        status=1
    fi
    nums="$nums $n"
done <"$list"
echo $nums
exit $status
