#!/bin/sh
# Side by side with dstask at 10k tasks: the same realistic store for both
# (10 % epics with their children, 20 % with a dependency, 30 % closed with
# a run's history, 5 % awaiting an answer), then bh list, ready and tree
# against dstask show-open, next and show-projects, interleaved, by CPU;
# each also "-edited": a task file rewritten before each bh run, so that
# bh's list cache no longer holds for that file.
#
# dstask has no epics, no waiting on a human and no tree: an epic and its
# children share a dstask project, awaiting is dstask's "paused", closed is
# "resolved", in progress is "active"; show-projects is the nearest to a
# tree (it too reads every open task and groups them).
#
# usage: task/store/bench/dstask.sh [DSTASK_SRC]
#   DSTASK_SRC  a checkout of github.com/naggie/dstask (not on the Go proxy
#               any more); default: fetched with git into a temp dir.
# env: BH_VS_N (default 10000), RUNS (default 20).
set -eu
here=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=${1:-}
if [ -z "$src" ]; then
	git clone -q --depth 1 https://github.com/naggie/dstask "$work/dstask-src"
	src=$work/dstask-src
fi
(cd "$src" && go build -o "$work/dstask" ./cmd/dstask)
(cd "$here" && go build -o "$work/bh" .)

# The benchmark writes both stores, lets the files settle so that bh's
# cache is trusted, and times each pair in turn.
cd "$here"
BH_DSTASK_BIN=$work/dstask BH_BENCH_BIN=$work/bh BH_VS_N=${BH_VS_N:-10000} \
	go test ./task/store -run XXX -bench VsDstask -benchtime "${RUNS:-20}x" -timeout 30m
