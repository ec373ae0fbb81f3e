// Command trainprobe trains the injection probe's learned model
// (pkg/protect/model) from the public corpora of
// pkg/protect/model/sources.json and the shared dev rows, sets its threshold
// by 5-fold cross-validation and writes weights.bin and cv.tsv (the
// cross-validated score of every dev row, which TestCorpusReport prints per
// source). With --check it writes nothing and fails unless retraining gives
// the committed weights byte for byte. Run it through make train-probe.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/protect/model"
)

// cfg is the model's shape and training; docs/decisions/injection-model.md
// gives the alternatives measured.
var cfg = model.Config{Bits: 18, Window: 80, Epochs: 10, Rate: 0.1, L2: 1e-5, Seed: 1,
	MinFeatures: 16, MinWords: 4, Check: true, MinCount: 2}

const folds = 5

// benignWeight is the benign examples' total loss weight relative to the
// injections' (AdaGrad makes the fit nearly insensitive to it).
const benignWeight = 2.0

// maxFP is the false-positive rate the threshold allows on each group of
// benign text outside security discussions.
const maxFP = 0.01

// devWeight is the weight of a shared benign dev row against one benign
// window of the other sources: the dev rows are short user-style questions
// and tasks (NotInject's trigger-word queries) that set the threshold, and
// one of them among thousands of 80-word windows would barely move the fit.
const devWeight = 30

// shortExtracts is the number of short documentation extracts (paragraphs
// of 3 to 40 words) added as benign rows of group "short": the threshold
// is then set on short texts too, the length of most injections.
// docs/decisions/injection-model.md gives the counts measured.
const shortExtracts = 1500

func main() {
	mirrors := flag.String("mirrors", "/work/.mirror", "`DIR` of bare mirrors laid out as DIR/owner+name/repo")
	eval := flag.String("eval", "../shared/eval", "`DIR` holding injections-dev.jsonl and benign-dev.jsonl")
	sources := flag.String("sources", "pkg/protect/model/sources.json", "source list `FILE`")
	heldOut := flag.String("heldout", "pkg/protect/model/heldout.json", "held-out rows `FILE`: training rows that share a run of words with one are dropped")
	out := flag.String("out", "pkg/protect/model/weights.bin", "model `FILE` to write")
	cvOut := flag.String("cv", "pkg/protect/model/cv.tsv", "cross-validated dev scores `FILE` to write")
	check := flag.Bool("check", false, "write nothing; fail unless retraining reproduces --out and --cv byte for byte")
	list := flag.Bool("list-repos", false, "print the repositories of --sources and --heldout, one owner/name a line, and exit")
	flag.Parse()
	if *list {
		if err := listRepos(*sources, *heldOut); err != nil {
			fmt.Fprintf(os.Stderr, "trainprobe: error: %v\n", err)
			os.Exit(2)
		}
		return
	}
	if err := run(*mirrors, *eval, *sources, *heldOut, *out, *cvOut, *check); err != nil {
		fmt.Fprintf(os.Stderr, "trainprobe: error: %v\n", err)
		os.Exit(1)
	}
}

func run(mirrors, eval, sourcesFile, heldOutFile, out, cvOut string, check bool) error {
	rows, err := readAll(mirrors, eval, sourcesFile, heldOutFile)
	if err != nil {
		return err
	}
	rows = append(rows, extracts(rows, shortExtracts)...)
	views := make([]string, len(rows))
	rules := make([]bool, len(rows))
	for i, r := range rows {
		views[i] = protect.ModelView(r.text)
		rules[i] = protect.Blocking(protect.Probe(r.text))
	}
	oof := make([]float64, len(rows))
	for k := range folds {
		m := train(rows, views, func(i int) bool { return fold(rows[i]) != k })
		for i := range rows {
			if fold(rows[i]) == k {
				oof[i] = m.Score(views[i]).Margin
			}
		}
	}
	t := threshold(rows, rules, oof)
	final := train(rows, views, func(int) bool { return true })
	final.Threshold = float32(t)
	weights := model.Encode(final)
	cv := cvTable(rows, oof, float32(t))
	report(os.Stdout, rows, rules, oof, t)
	if check {
		for _, f := range []struct {
			path string
			b    []byte
		}{{out, weights}, {cvOut, cv}} {
			old, err := os.ReadFile(f.path)
			if err != nil {
				return err
			}
			if !bytes.Equal(old, f.b) {
				return fmt.Errorf("%s: retraining gives different bytes (%d, committed %d)", f.path, len(f.b), len(old))
			}
		}
		fmt.Println("trainprobe: retrained model and cv scores are byte-identical to the committed ones")
		return nil
	}
	if err := os.WriteFile(out, weights, 0o644); err != nil {
		return err
	}
	return os.WriteFile(cvOut, cv, 0o644)
}

func fold(r row) int { return int(hash(r.foldKey) % folds) }

// train fits a model on the rows use accepts, less the measured-only ones
// (source.Measure): injections whole, benign
// texts cut into the model's windows, each window also giving one shorter
// piece (piece); a shared dev row weighs devWeight windows; benign text
// carries twice the injections' total weight.
func train(rows []row, views []string, use func(int) bool) *model.Model {
	var ex []model.Example
	var nInj int
	var nBen float64
	for i, r := range rows {
		if !use(i) || r.measure {
			continue
		}
		if r.injection() {
			ex = append(ex, model.Example{View: views[i], Injection: true, Weight: 1})
			nInj++
			continue
		}
		k := 1.0
		if r.dev {
			k = devWeight
		}
		for j, w := range model.Split(views[i], cfg.Window) {
			ex = append(ex, model.Example{View: w, Weight: k})
			nBen += k
			if p, ok := piece(w, fmt.Sprintf("%s#%d", r.id, j)); ok {
				ex = append(ex, model.Example{View: p, Weight: k})
				nBen += k
			}
		}
	}
	wb := benignWeight * float64(nInj) / max(nBen, 1)
	for i := range ex {
		if !ex[i].Injection {
			ex[i].Weight *= wb
		}
	}
	m, _ := model.Decode(model.Encode(model.Train(ex, cfg)))
	return m
}

// pieceLens are the lengths, in words, of the benign pieces piece cuts:
// the range of the injections' lengths. Without them every benign example
// but the dev rows and the short extracts is an 80-word window, the
// injections are mostly shorter, and the model learned that a text with
// little benign evidence is an injection: its bias sat at probability 0.7,
// and a neutral sentence of a dozen words ("Long B starts here. It says
// three things.") reached the threshold.
var pieceLens = []int{6, 10, 16, 24, 40}

// piece returns a run of consecutive words of the benign window w, its
// length and start drawn from a hash of key; ok is false when w is not
// longer than the drawn length.
func piece(w, key string) (string, bool) {
	f := strings.Fields(w)
	h := hash(key)
	n := pieceLens[h%uint32(len(pieceLens))]
	if n >= len(f) {
		return "", false
	}
	off := int(h>>8) % (len(f) - n + 1)
	return strings.Join(f[off:off+n], " "), true
}

// securityGroups are the benign groups of security discussions, whose false
// positives are reported but do not set the threshold.
var securityGroups = map[string]bool{"security": true, "dev_security": true}

// threshold is the lowest margin at which the model flags at most maxFP of
// every benign group outside security discussions (cross-validated
// scores), and at which rules or model together flag at most maxFP of the
// shared dev rows outside security discussions. Measured-only rows neither
// constrain it nor offer candidate margins.
func threshold(rows []row, rules []bool, oof []float64) float64 {
	var cands []float64
	for i, r := range rows {
		if !r.injection() && !r.measure {
			cands = append(cands, oof[i])
		}
	}
	sort.Float64s(cands)
	for _, c := range cands {
		if t := above(c); admissible(rows, rules, oof, t) {
			return t
		}
	}
	return above(cands[len(cands)-1])
}

// above is the first margin of four decimals above m: cv.tsv prints
// margins to four decimals, and a benign row at the threshold's own margin
// must read as below it there too.
func above(m float64) float64 { return (math.Floor(m*1e4+0.5) + 1) / 1e4 }

func admissible(rows []row, rules []bool, oof []float64, t float64) bool {
	fp, n := map[string]int{}, map[string]int{}
	devFP := 0
	for i, r := range rows {
		if r.injection() || r.measure || securityGroups[r.group] {
			continue
		}
		n[r.group]++
		if oof[i] >= t {
			fp[r.group]++
		}
		if r.group == "dev_benign" && (rules[i] || oof[i] >= t) {
			devFP++
		}
	}
	for g := range n {
		if float64(fp[g]) > maxFP*float64(n[g]) {
			return false
		}
	}
	return float64(devFP) <= maxFP*float64(n["dev_benign"])
}

// cvTable is cv.tsv: the threshold, then one line per shared dev row: its
// id and its cross-validated margin.
func cvTable(rows []row, oof []float64, t float32) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# cross-validated margins of the shared dev rows (%d folds), written by make train-probe\n", folds)
	fmt.Fprintf(&b, "threshold\t%.4f\n", t)
	for i, r := range rows {
		if r.dev {
			fmt.Fprintf(&b, "%s\t%.4f\n", r.id, oof[i])
		}
	}
	return []byte(b.String())
}

// listRepos prints the distinct repositories of the source lists (make
// probe-sources clones them).
func listRepos(files ...string) error {
	seen := map[string]bool{}
	for _, f := range files {
		srcs, err := loadSources(f)
		if err != nil {
			return err
		}
		for _, s := range srcs {
			if !seen[s.Repo] {
				seen[s.Repo] = true
				fmt.Println(s.Repo)
			}
		}
	}
	return nil
}
