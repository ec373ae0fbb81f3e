# rtch — build, test and run the toolkit. `make help` lists the targets.
GO      ?= go
BIN     ?= bin
GOAL    ?= find where the record stream reader reports malformed lines
EVALREPOS ?= /work/.mirror
EVALFLAGS ?=
RECALLFLAGS ?=
# The shared evaluation data (go-commits.jsonl, swebench-verified-dev.jsonl,
# the probe's dev rows) is a directory shared/eval beside the checkout: by
# default the nearest shared/eval in this Makefile's directory or above it,
# as the tests find it (../shared/eval for a clone next to it,
# /work/shared/eval for a worktree /work/wt/NAME); EVALDATA=DIR names another.
MAKEDIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
ifeq ($(origin EVALDATA),undefined)
EVALDATA := $(shell d='$(MAKEDIR)'; while :; do \
  if [ -d "$$d/shared/eval" ]; then echo "$$d/shared/eval"; break; fi; \
  p=$$(dirname "$$d"); [ "$$p" = "$$d" ] && break; d=$$p; done)
endif
# need-evaldata FILES: stop with a message naming the directory (and the
# file) when the data is not where EVALDATA says, before anything is built.
need-evaldata = @set -e; \
  if [ -z '$(EVALDATA)' ]; then echo "make $@: no shared/eval directory in $(MAKEDIR) or above it (the shared evaluation data); set EVALDATA=DIR" >&2; exit 2; fi; \
  if [ ! -d '$(EVALDATA)' ]; then echo "make $@: EVALDATA=$(EVALDATA): no such directory (the shared evaluation data; set EVALDATA=DIR)" >&2; exit 2; fi; \
  for f in $(1); do if [ ! -f '$(EVALDATA)'/"$$f" ]; then echo "make $@: EVALDATA=$(EVALDATA): no $$f in it" >&2; exit 2; fi; done
# The learned ranking's training corpus (bench/traincorpus) lives outside
# the repository: tasks rebuilt from bench/traincorpus/ids.tsv and the
# mirrors in EVALREPOS, and their features (2 to 5 s a task on two shared
# cores; resumable), extracted by FEATUREJOBS runs at once and merged.
# The model is trained on the first TRAINLIMIT tasks (0: all 6,460); the
# file's order interleaves the repositories, so any prefix is balanced.
TRAINDIR ?= $(HOME)/.cache/rtch-train
TRAINTASKS ?= $(TRAINDIR)/tasks.jsonl
TRAINFEATURES ?= $(TRAINDIR)/features.ndjson
TRAINLIMIT ?= 1500
FEATUREJOBS ?= 1
# The learned function ranking's features (bench/traincorpus fnfeatures:
# the units rtch-hydrate ranks, about 1 to 3 s a task) and the number of
# their first tasks pkg/fnrank/model.json is trained on.
FNFEATURES ?= $(TRAINDIR)/fnfeatures.ndjson
FNLIMIT ?= 0
PYTHON  ?= /usr/bin/python3

VERSION ?=
# make install puts the man pages and completions under PREFIX.
PREFIX  ?= $(HOME)/.local
# make cross vets and compiles every test binary for these platforms.
CROSS   ?= darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
# -buildvcs=auto stamps the revision, dirty flag and commit time that
# --version prints, whatever GOFLAGS says; make release VERSION=v1.2.3 also
# sets the version and the build time.
BUILDFLAGS ?= -buildvcs=auto
CLI     := github.com/rtch/rtch/pkg/cli

.PHONY: all build test cross install docs run eval eval-recall bench help clean release readme-sample corpus features train cv fnfeatures train-fnrank cv-fnrank train-probe train-probe-check probe-sources bench-doc mcp-transcript reply-budget

all: build

build: ## build every binary into ./bin
	$(GO) build $(BUILDFLAGS) -o $(BIN)/ ./cmd/...

release: ## archives for linux, darwin and windows (amd64, arm64) and their checksums in dist/VERSION (VERSION=vX.Y.Z required)
	@test -n "$(VERSION)" || { echo "make release: set VERSION, e.g. make release VERSION=v1.2.3" >&2; exit 2; }
	$(GO) run ./build/dist release --version $(VERSION) --out dist/$(VERSION)

test: ## run the test suite, then vet and compile the tests for darwin and windows (what CI runs)
	$(GO) test ./...
	$(MAKE) --no-print-directory cross

cross: ## vet every package and compile every test binary for each platform of CROSS
	@set -e; out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	for p in $(CROSS); do \
	  echo "cross: $$p"; \
	  GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) vet ./...; \
	  GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) test -c -o "$$out/" ./... >/dev/null; \
	  rm -f "$$out"/*; \
	done

install: ## install every binary into $GOBIN, the man pages and completions under PREFIX (default ~/.local)
	$(GO) install $(BUILDFLAGS) ./cmd/...
	@set -e; d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	$(GO) run ./build/dist docs --out "$$d"; \
	install -d "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"; \
	install -m 644 "$$d"/man/man1/*.1 "$(DESTDIR)$(PREFIX)/share/man/man1/"; \
	install -m 644 "$$d"/completions/bash/* "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/"; \
	install -m 644 "$$d"/completions/zsh/* "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/"; \
	install -m 644 "$$d"/completions/fish/* "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/"; \
	echo "man pages and completions installed under $(DESTDIR)$(PREFIX)/share"

docs: ## write the man pages and shell completions into $(BIN)/share
	$(GO) run ./build/dist docs --out $(BIN)/share

run: build ## run the whole pipeline on this repository and print the brief
	$(BIN)/rtch-intake --goal "$(GOAL)" --profile code_path --fanout normal \
	  --risk read_only --output-kind hydration_packet \
	  --enough "the file and lines that implement it are hydrated" \
	| $(BIN)/rtch-zone | $(BIN)/rtch-scout | $(BIN)/rtch-probe \
	| $(BIN)/rtch-hydrate | $(BIN)/rtch-packet --format md

eval: ## retrieval quality against BM25 and the classic ranking on the nearest shared/eval above the checkout, or EVALDATA=DIR (needs the task repositories, see docs/BENCHMARKS.md); then the cross-validation when TRAINFEATURES exists
	$(call need-evaldata,go-commits.jsonl swebench-verified-dev.jsonl)
	$(MAKE) --no-print-directory build
	$(GO) run ./bench/eval --bin $(BIN) --repos $(EVALREPOS) \
	  --tasks $(EVALDATA)/go-commits.jsonl --tasks $(EVALDATA)/swebench-verified-dev.jsonl --whole-files $(EVALFLAGS)
	@if [ -f $(TRAINFEATURES) ]; then $(MAKE) --no-print-directory cv; \
	else echo "eval: no $(TRAINFEATURES): make features cv for the cross-validation by repository"; fi

corpus: ## the ranking's training tasks, rebuilt from bench/traincorpus/ids.tsv and the mirrors in EVALREPOS
	@mkdir -p $(TRAINDIR)
	$(GO) run ./bench/traincorpus tasks --mirrors $(EVALREPOS) --ids bench/traincorpus/ids.tsv --out $(TRAINTASKS)

features: ## the ranking features of the training tasks (long; resumes where it stopped; TRAINLIMIT=N for the first N, FEATUREJOBS=N runs at once)
	@test -f $(TRAINTASKS) || $(MAKE) corpus
	$(GO) build -o $(TRAINDIR)/traincorpus ./bench/traincorpus
	@set -e; pids=; k=0; while [ $$k -lt $(FEATUREJOBS) ]; do \
		shard=$(TRAINDIR)/shard-$$k-of-$(FEATUREJOBS).ndjson; \
		if [ ! -f $$shard ] && [ -f $(TRAINFEATURES) ]; then cp $(TRAINFEATURES) $$shard; fi; \
		nice -n 10 $(TRAINDIR)/traincorpus features --mirrors $(EVALREPOS) --tasks $(TRAINTASKS) --limit $(TRAINLIMIT) \
			--shard $$k/$(FEATUREJOBS) --out $$shard --tmp $(TRAINDIR)/trees-$$k & \
		pids="$$pids $$!"; k=$$((k+1)); done; \
	for p in $$pids; do wait $$p; done
	$(TRAINDIR)/traincorpus merge --tasks $(TRAINTASKS) --out $(TRAINFEATURES) $(TRAINDIR)/shard-*-of-$(FEATUREJOBS).ndjson

train: features ## rebuild pkg/rank/model.json and model.bin, the pairwise linear model, from the training features (the same features give the same files)
	$(GO) run ./bench/ranktrain linear --features $(TRAINFEATURES) --limit $(TRAINLIMIT) --out pkg/rank/model.json
	$(GO) run ./bench/ranktrain pack --model pkg/rank/model.json --out pkg/rank/model.bin

cv: ## the learned rankings' cross-validation by repository on the training features
	@rm -rf $(TRAINDIR)/cv && mkdir -p $(TRAINDIR)/cv
	nice -n 10 $(PYTHON) bench/ranktrain/train.py --features $(TRAINFEATURES) --limit $(TRAINLIMIT) --cv 5 --cv-dir $(TRAINDIR)/cv
	$(GO) run ./bench/ranktrain cv --features $(TRAINFEATURES) --limit $(TRAINLIMIT) --folds 5 --models $(TRAINDIR)/cv

fnfeatures: ## the function ranking's features of the training tasks (resumes where it stopped; FNLIMIT=N for the first N, FEATUREJOBS=N runs at once)
	@test -f $(TRAINTASKS) || $(MAKE) corpus
	$(GO) build -o $(TRAINDIR)/traincorpus ./bench/traincorpus
	@set -e; pids=; k=0; while [ $$k -lt $(FEATUREJOBS) ]; do \
		shard=$(TRAINDIR)/fnshard-$$k-of-$(FEATUREJOBS).ndjson; \
		if [ ! -f $$shard ] && [ -f $(FNFEATURES) ]; then cp $(FNFEATURES) $$shard; fi; \
		nice -n 10 $(TRAINDIR)/traincorpus fnfeatures --mirrors $(EVALREPOS) --tasks $(TRAINTASKS) --limit $(FNLIMIT) \
			--shard $$k/$(FEATUREJOBS) --out $$shard --tmp $(TRAINDIR)/trees-$$k & \
		pids="$$pids $$!"; k=$$((k+1)); done; \
	for p in $$pids; do wait $$p; done
	$(TRAINDIR)/traincorpus merge --tasks $(TRAINTASKS) --out $(FNFEATURES) $(TRAINDIR)/fnshard-*-of-$(FEATUREJOBS).ndjson

train-fnrank: ## rebuild pkg/fnrank/model.json, the learned function ranking, from FNFEATURES (the same features give the same file)
	$(PYTHON) bench/ranktrain/fntrain.py --features $(FNFEATURES) --limit $(FNLIMIT) --out pkg/fnrank/model.json

cv-fnrank: ## the learned function ranking's cross-validation by repository on FNFEATURES, beside the hand-written order
	nice -n 10 $(PYTHON) bench/ranktrain/fntrain.py --features $(FNFEATURES) --limit $(FNLIMIT) --cv 5 --gate 20

eval-recall: ## guild-recall's page recall on public documentation against BM25 (fetches missing sources into EVALREPOS from github.com; RTCH_TEST_PG_DSN for postgres; docs/bench/recall.md)
	$(GO) run ./bench/recalleval --repos $(EVALREPOS) --fetch $(RECALLFLAGS)

bench: ## Go benchmarks of the hot paths
	$(GO) test -run '^$$' -bench . -benchmem ./pkg/...

# make train-probe reads the bare mirrors of pkg/protect/model/sources.json
# and heldout.json (whose rows only decontaminate the training rows) here
# (DIR/owner+name/repo); make probe-sources clones the missing ones.
PROBEMIRRORS ?= $(EVALREPOS)

train-probe: ## retrain the injection probe's model (pkg/protect/model/weights.bin, cv.tsv) from its public sources and the shared dev rows
	$(call need-evaldata,)
	$(GO) run ./bench/trainprobe --mirrors $(PROBEMIRRORS) --eval $(EVALDATA)

train-probe-check: ## retrain the injection probe's model and fail unless it is byte-identical to the committed one
	$(call need-evaldata,)
	$(GO) run ./bench/trainprobe --mirrors $(PROBEMIRRORS) --eval $(EVALDATA) --check

probe-sources: ## clone the repositories train-probe reads as bare mirrors into PROBEMIRRORS
	@set -e; for r in $$($(GO) run ./bench/trainprobe --list-repos); do \
	  d="$(PROBEMIRRORS)/$$(echo $$r | tr / +)/repo"; \
	  [ -d "$$d" ] || git clone --bare "https://github.com/$$r" "$$d"; \
	done

bench-doc: ## re-render the benchmark pages' tables from the run summaries in bench/runs
	$(GO) run ./bench/benchdoc $$(grep -rl '<!-- bench-doc ' docs)

readme-sample: ## regenerate the README's sample brief from testdata/fixtures/sample
	UPDATE_README=1 $(GO) test -count=1 -run 'TestReadmeSample' ./pkg/pipeline

mcp-transcript: ## regenerate docs/rtch-mcp.md's recorded session (the built rtch-mcp, the SDK's client over stdio)
	UPDATE_TRANSCRIPT=1 $(GO) test -count=1 -run 'TestDocsTranscript' ./pkg/cmd/rtchmcp

reply-budget: build ## every rtch-mcp reply within its budget on large trees (REPLYTREES, default GOROOT/src); fails when one is over
	@set -e; for t in $(or $(REPLYTREES),$$($(GO) env GOROOT)/src); do \
	  echo "reply-budget: $$t"; $(GO) run ./bench/replysize --check --bin $(BIN) --root "$$t"; \
	done

clean:
	rm -rf $(BIN)

help:
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
