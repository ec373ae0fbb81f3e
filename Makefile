# rtch — build, test and run the toolkit. `make help` lists the targets.
GO      ?= go
BIN     ?= bin
GOAL    ?= find where the record stream reader reports malformed lines
EVALREPOS ?= /work/.mirror
EVALFLAGS ?=
EVALDATA ?= ../shared/eval

VERSION ?=
# -buildvcs=auto stamps the revision, dirty flag and commit time that
# --version prints, whatever GOFLAGS says; make release VERSION=v1.2.3 also
# sets the version and the build time.
BUILDFLAGS ?= -buildvcs=auto
CLI     := github.com/rtch/rtch/pkg/cli

.PHONY: all build test install run eval bench help clean release readme-sample

all: build

build: ## build every binary into ./bin
	$(GO) build $(BUILDFLAGS) -o $(BIN)/ ./cmd/...

release: ## build every binary with VERSION (required) and the build time stamped in
	@test -n "$(VERSION)" || { echo "make release: set VERSION, e.g. make release VERSION=v1.2.3" >&2; exit 2; }
	$(GO) build $(BUILDFLAGS) -ldflags "-X $(CLI).Version=$(VERSION) -X $(CLI).BuildTime=$$(date -u +%Y-%m-%dT%H:%M:%SZ)" -o $(BIN)/ ./cmd/...

test: ## run the test suite (what CI runs)
	$(GO) test ./...

install: ## install every binary into $GOBIN
	$(GO) install $(BUILDFLAGS) ./cmd/...

run: build ## run the whole pipeline on this repository and print the brief
	$(BIN)/rtch-intake --goal "$(GOAL)" --profile code_path --fanout normal \
	  --risk read_only --output-kind hydration_packet \
	  --enough "the file and lines that implement it are hydrated" \
	| $(BIN)/rtch-zone | $(BIN)/rtch-scout | $(BIN)/rtch-probe \
	| $(BIN)/rtch-hydrate | $(BIN)/rtch-packet --format md

eval: build ## retrieval quality against BM25 on ../shared/eval, or EVALDATA=DIR (needs the task repositories, see docs/BENCHMARKS.md)
	$(GO) run ./bench/eval --bin $(BIN) --repos $(EVALREPOS) \
	  --tasks $(EVALDATA)/go-commits.jsonl --tasks $(EVALDATA)/swebench-verified-dev.jsonl $(EVALFLAGS)

bench: ## Go benchmarks of the hot paths
	$(GO) test -run '^$$' -bench . -benchmem ./pkg/...

readme-sample: ## regenerate the README's sample brief from testdata/fixtures/sample
	UPDATE_README=1 $(GO) test -count=1 -run 'TestReadmeSample' ./pkg/pipeline

clean:
	rm -rf $(BIN)

help:
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
