#!/bin/sh
# Callgrind on ompsim itself: instruction counts of the tool's own code,
# the same from run to run whatever else the host is doing.
#
# Why: on the project's 2-core VM the same build's wall time moves by 10 to
# 30 % from run to run, so a change worth 3 % cannot be seen in seconds.
# Instructions executed (and, with --cache-sim, the host cache misses
# Callgrind simulates for them) are counted, not timed.
#
# How: Valgrind cannot run under Valgrind as installed (both load at the
# same address). This builds an "inner" Valgrind (configure --enable-inner:
# it loads at another address) from the source of the installed version,
# builds ompsim against it, and runs it under the system's Callgrind with
# --sim-hints=enable-outer, as Valgrind's README_DEVELOPERS describes.
#
#   bench/self_profile.sh setup            # once: inner Valgrind + ompsim (a few minutes)
#   bench/self_profile.sh build            # after a change: rebuild the inner ompsim
#   bench/self_profile.sh run OUT [--cache-sim] -- TOOL-OPTIONS PROGRAM ARGS
#                                          # Callgrind's profile of the run in OUT
#   bench/self_profile.sh total OUT        # the profile's instruction count
#
# TOOL-OPTIONS start with --tool=ompsim (or --tool=cachegrind ..., to count
# the baseline the same way). Runs are about 60 times slower than the
# inner tool alone: use small inputs (memcopy 2, containers 5000 1).
# ompsim's host threads are real threads of the inner Valgrind; with
# --miss-thread=no --replay-thread=no the count is that of one host CPU.
#
# Everything goes under $OMPSIM_SELF_PROFILE_DIR (default
# ~/.cache/ompsim-self-profile): src/ (Debian's valgrind source package),
# vg/ (the inner Valgrind, ompsim installed in its tool directory) and
# build/ (ompsim configured against it). Needs Debian's source archive
# (deb.debian.org) for setup; nothing here is part of 'make check'.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
WORK=${OMPSIM_SELF_PROFILE_DIR:-$HOME/.cache/ompsim-self-profile}
VG=$WORK/vg
JOBS=$(nproc 2>/dev/null || echo 2)

die() { echo "self_profile.sh: $*" >&2; exit 1; }

setup() {
    command -v valgrind >/dev/null || die "valgrind is not installed"
    ver=$(valgrind --version | sed 's/^valgrind-//')
    mkdir -p "$WORK/src/lists/partial" "$WORK/src/cache/archives/partial"
    if [ ! -d "$WORK/src/valgrind-$ver" ]; then
        # The source package of the installed version, through a deb-src
        # list of our own (the machine's apt configuration is left alone).
        list=$WORK/src/deb-src.sources
        # shellcheck source=/dev/null
        suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$suite" > "$list"
        opts="-o Dir::Etc::SourceList=$list -o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists=$WORK/src/lists -o Dir::Cache=$WORK/src/cache"
        # shellcheck disable=SC2086
        apt-get $opts update >/dev/null || die "apt-get update of $list failed"
        # shellcheck disable=SC2086
        (cd "$WORK/src" && apt-get $opts source --download-only "valgrind=$(dpkg-query -W -f='${Version}' valgrind)") \
            >/dev/null 2>&1 || die "cannot download the source of valgrind $ver"
        # The upstream tarball without Debian's patches: in 3.19.0-1 they
        # touch .valgrindrc quoting, ARM, PPC, MPI, vgdb's path and the
        # manual, nothing of amd64's core or of the tool interface.
        (cd "$WORK/src" && tar xjf "valgrind_$ver.orig.tar.bz2") || die "cannot unpack valgrind_$ver.orig.tar.bz2"
    fi
    if [ ! -x "$VG/bin/valgrind" ]; then
        echo "building the inner Valgrind $ver in $WORK/src/valgrind-$ver (log: $WORK/src/build.log)"
        (cd "$WORK/src/valgrind-$ver" && ./configure --enable-inner --prefix="$VG" && make -j"$JOBS" && make install) \
            > "$WORK/src/build.log" 2>&1 || die "building the inner Valgrind failed: see $WORK/src/build.log"
    fi
    mkdir -p "$WORK/build"
    echo "configuring ompsim against it in $WORK/build"
    (cd "$WORK/build" && PKG_CONFIG_PATH=$VG/lib/pkgconfig PATH=$VG/bin:$PATH "$SRC/configure") \
        > "$WORK/build/configure.log" 2>&1 || die "configure failed: see $WORK/build/configure.log"
    build
}

build() {
    [ -f "$WORK/build/Makefile" ] || die "no inner build: run 'bench/self_profile.sh setup' first"
    make -C "$WORK/build" -j"$JOBS" ompsim-amd64-linux vgpreload_ompsim-amd64-linux.so > "$WORK/build/make.log" 2>&1 \
        || die "building the inner ompsim failed: see $WORK/build/make.log"
    # Its own tool directory: 'valgrind --tool=ompsim' of the inner Valgrind
    # finds it without VALGRIND_LIB, which the outer Valgrind would read too.
    cp "$WORK/build/ompsim-amd64-linux" "$WORK/build/vgpreload_ompsim-amd64-linux.so" "$VG/libexec/valgrind/"
    echo "inner ompsim installed in $VG/libexec/valgrind"
}

run() {
    [ $# -ge 1 ] || die "run needs OUT"
    out=$1; shift
    extra=
    if [ "${1:-}" = "--cache-sim" ]; then extra="--cache-sim=yes"; shift; fi
    [ "${1:-}" = "--" ] || die "run OUT [--cache-sim] -- TOOL-OPTIONS PROGRAM ARGS"
    shift
    [ -x "$VG/libexec/valgrind/ompsim-amd64-linux" ] || die "no inner ompsim: run 'bench/self_profile.sh setup' first"
    # shellcheck disable=SC2086
    env -u VALGRIND_LIB -u VALGRIND_OPTS valgrind --tool=callgrind --sim-hints=enable-outer --trace-children=yes --vgdb=no \
        --smc-check=all-non-file --run-libc-freeres=no $extra --callgrind-out-file="$out" \
        "$VG/bin/valgrind" "$@"
    n=$(total "$out")
    echo "self_profile.sh: $n instructions in all (callgrind_annotate $out)" >&2
}

total() {
    [ -r "${1:-}" ] || die "total needs a readable Callgrind profile"
    n=$(sed -n 's/^totals: \([0-9][0-9]*\).*/\1/p; s/^summary: \([0-9][0-9]*\).*/\1/p' "$1" | head -1)
    [ -n "$n" ] || die "$1 is not a complete Callgrind profile (no totals line): did the run end early?"
    echo "$n"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
    setup) setup ;;
    build) build ;;
    run) run "$@" ;;
    total) total "$@" ;;
    *) die "usage: self_profile.sh setup | build | run OUT [--cache-sim] -- TOOL-OPTIONS PROGRAM ARGS | total OUT" ;;
esac
