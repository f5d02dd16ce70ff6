# Sourced by scripts/test. `phase NAME SECONDS command…` runs one test phase with a time limit. A phase that
# runs past it (a test waiting for ever on a child or a condition) is stopped, and the run fails with what was
# still running, as its last lines: the tests started and not finished, the test process's children, and the
# test code each of its threads was in — instead of spending the CI's whole time in silence.
# `step NAME command…` times a build or a phase; `steps_report` (at exit, also when CI's own limit stops the
# run) lists each step's wall and CPU seconds and the one still running, so a slow run says where it went.

# Seconds of CPU this shell's finished children used (user and system), from /proc (clock ticks).
children_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($16 + $17) / hz }' "/proc/$$/stat"; }

step() {
    local name=$1
    shift
    local started=$SECONDS cpu=$(children_cpu) status=0
    echo "$name $started" > "$TMPDIR/step-running"
    "$@" || status=$?
    rm -f "$TMPDIR/step-running"
    local line="$name: $((SECONDS - started)) s, CPU $(($(children_cpu) - cpu)) s$( ((status == 0)) || echo ", failed ($status)")"
    echo "$line" >> "$TMPDIR/steps"
    echo "scripts/test: $line" >&2
    return "$status"
}

steps_report() {
    {
        echo "scripts/test: each step's wall time and the CPU time of its processes, after ${SECONDS} s:"
        sed 's/^/  /' "$TMPDIR/steps" 2>/dev/null
        if [ -f "$TMPDIR/step-running" ]; then
            local name started
            read -r name started < "$TMPDIR/step-running"
            echo "  $name: still running after $((SECONDS - started)) s"
        fi
    } >&2
}

phase() {
    local name=$1 limit=$2
    shift 2
    local log="$TMPDIR/phase-$name.log"
    : > "$log"
    (
        set +e +o pipefail  # a report finds what it can: a grep that matches nothing must not end it
        trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
        sleep "$limit" &
        sleeper=$!
        wait "$sleeper"
        phase_report "$name" "$limit" "$log"
    ) &
    local watchdog=$!
    local status=0
    "$@" 2>&1 | tee -a "$log" || status=$?
    kill "$watchdog" 2>/dev/null || true
    wait "$watchdog" 2>/dev/null || true
    if ((status != 0)) && grep -q '^scripts/test: phase ' "$log" 2>/dev/null; then
        # The report goes last: it is what a CI log's tail shows.
        sed -n '/^scripts\/test: phase /,$p' "$log" >&2
    fi
    return "$status"
}

# gdb's backtraces, a line a thread that is in the project's code: its two innermost frames in Sources/ and
# its innermost in Tests/ (a dependency's frames, under .build/, are left out).
phase_threads() {
    awk '
        function flush() { if (line != "") print line; line = "" }
        /^Thread / { flush(); t = $2; name = $0; sub(/.*\) "/, "", name); sub(/"\).*/, "", name); inner = 0; test = 0; next }
        /^#/ && / at \// && !/\/\.build\// {
            if (!match($0, / at \/[^ ]*:[0-9]+/)) next
            loc = substr($0, RSTART + 4, RLENGTH - 4)
            if (loc ~ /\/Tests\//) { if (test) next; test = 1; sub(/.*\/Tests\//, "Tests/", loc) }
            else if (loc ~ /\/Sources\//) { if (inner >= 2) next; inner++; sub(/.*\/Sources\//, "", loc) }
            else next
            if (line == "") line = "  thread " t " (" name "): " loc; else line = line " < " loc
        }
        END { flush() }'
}

# Every process under `pid`, children first.
phase_descendants() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do
        phase_descendants "$child"
        echo "$child"
    done
}

phase_report() {
    local name=$1 limit=$2 log=$3
    {
        echo "scripts/test: phase '$name' ran past its $limit s and was stopped."
        echo "Tests started and not finished:"
        # "◇ Test x() started." / "◇ Test case passing … to x(_:) started." against "✔|✘|━ Test x() … after".
        sed -nE 's/^◇ Test (case passing .* to )?([^ ]+) started\.$/\2/p' "$log" | sort -u > "$log.started"
        sed -nE 's/^[✔✘━] Test ([^ ]+) (with [0-9]+ test cases )?(passed|failed) after.*/\1/p' "$log" | sort -u > "$log.ended"
        comm -23 "$log.started" "$log.ended" | sed "s/^/  /" | head -25
        local runner
        for runner in $(pgrep -f 'PackageTests\.xctest' 2>/dev/null); do
            echo "Test process $runner: its children still running:"
            local p
            for p in $(phase_descendants "$runner"); do ps -o pid=,etimes=,args= -p "$p" | cut -c1-200 | sed 's/^/  /'; done
            echo "Test process $runner: where its threads are (the project's innermost frames, then the test's):"
            # Bounded: a process stopped in a crash handler can hold gdb's attach, and the kill below must come.
            timeout -s KILL 120 gdb -p "$runner" -batch -ex 'thread apply all bt 60' 2>/dev/null | phase_threads | head -30
        done
    } >> "$log" 2>&1
    # Stop the runner and everything it started; `swift test` then fails and so does the phase.
    local runner p
    for runner in $(pgrep -f 'PackageTests\.xctest' 2>/dev/null); do
        for p in $(phase_descendants "$runner") "$runner"; do kill -KILL "$p" 2>/dev/null || true; done
    done
}
