# rtch — build, test and run the toolkit. `make help` lists the targets.
GO      ?= go
BIN     ?= bin
GOAL    ?= find where the record stream reader reports malformed lines
EVALREPOS ?= /work/.mirror
EVALFLAGS ?=

.PHONY: all build test install run eval bench help clean

all: build

build: ## build every binary into ./bin
	$(GO) build -o $(BIN)/ ./cmd/...

test: ## run the test suite (what CI runs)
	$(GO) test ./...

install: ## install every binary into $GOBIN
	$(GO) install ./cmd/...

run: build ## run the whole pipeline on this repository and print the brief
	$(BIN)/rtch-intake --goal "$(GOAL)" --profile code_path --fanout normal \
	  --risk read_only --output-kind hydration_packet \
	  --enough "the file and lines that implement it are hydrated" \
	| $(BIN)/rtch-zone | $(BIN)/rtch-scout | $(BIN)/rtch-probe \
	| $(BIN)/rtch-hydrate | $(BIN)/rtch-packet --format md

eval: build ## retrieval quality against BM25 on ../shared/eval (needs the task repositories, see docs/BENCHMARKS.md)
	$(GO) run ./bench/eval --bin $(BIN) --repos $(EVALREPOS) \
	  --tasks ../shared/eval/go-commits.jsonl --tasks ../shared/eval/swebench-verified-dev.jsonl $(EVALFLAGS)

bench: ## Go benchmarks of the hot paths
	$(GO) test -run '^$$' -bench . -benchmem ./pkg/...

clean:
	rm -rf $(BIN)

help:
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
