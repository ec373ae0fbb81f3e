#!/usr/bin/python3
"""Train the learned ranking's gradient-boosted trees (XGBoost, rank:pairwise).

    /usr/bin/python3 bench/ranktrain/train.py --features F --out pkg/rank/model.json
    /usr/bin/python3 bench/ranktrain/train.py --features F --cv 5 --cv-dir DIR

Reads the features file of bench/traincorpus features, trains on every task
whose candidates hold a gold file, and writes the trees as a pkg/rank model
file (rank.LoadModel), which pure Go evaluates: an inner node sends a row to
"yes" when float32(x[f]) < t, XGBoost's own rule. With --cv K it writes one
model per fold instead, DIR/fold-K.json, each trained without the
repositories of its fold (dealt as bench/ranktrain deals them: the
repositories of each language in name order, round-robin) and naming them,
for `ranktrain cv --models DIR`. One thread and a fixed seed make the same
features give the same file byte for byte.
"""
import argparse
import json
import sys

import numpy as np
import xgboost as xgb

import xgbtrees

PARAMS = {
    "objective": "rank:pairwise",
    "eta": 0.05,
    "max_depth": 6,
    "min_child_weight": 1.0,
    "subsample": 1.0,
    "colsample_bytree": 1.0,
    "lambda": 1.0,
    "tree_method": "hist",
    "max_bin": 256,
    "nthread": 1,
    "seed": 0,
}
ROUNDS = 300
POOL = 100


def load(path, history, limit):
    with open(path) as f:
        head = json.loads(f.readline())
        if head.get("kind") != "traincorpus.features":
            sys.exit("train.py: error: %s:1: not a features file" % path)
        names = list(head["names"]) + (list(head["history"]) if history else [])
        tasks = []
        for no, line in enumerate(f, 2):
            if limit and no > limit + 1:
                break
            t = json.loads(line)
            if t.get("error"):
                continue
            rows = []
            for i, r in enumerate(t.get("f", [])[:POOL]):
                rows.append(r + (t["h"][i] if history else []))
            if not rows:
                continue
            labels = t["labels"][:POOL]
            tasks.append((t["repo"], t["lang"], np.array(rows, dtype=np.float32), np.array(labels, dtype=np.float32)))
    return names, tasks


def folds(tasks, k):
    """The repositories of each language in name order, dealt round-robin."""
    by_lang = {}
    for repo, lang, _, _ in tasks:
        by_lang.setdefault(lang, set()).add(repo)
    out, nxt = {}, 0
    for lang in sorted(by_lang):
        for repo in sorted(by_lang[lang]):
            out[repo] = nxt % k
            nxt += 1
    return out


# BASE is the hand-written ranking's part of every score: BASE_SCALE times
# its column BASE_FEATURE, the margin the trees start from. The trees learn
# what to change in that order, not a new one.
BASE_FEATURE = "log_score"
BASE_SCALE = 0.0


def train(tasks, names):
    use = [t for t in tasks if t[3].sum() > 0 and len(t[3]) > 1]
    x = np.concatenate([t[2] for t in use])
    y = np.concatenate([t[3] for t in use])
    d = xgb.DMatrix(x, label=y)
    d.set_group([len(t[3]) for t in use])
    if BASE_SCALE:
        d.set_base_margin(BASE_SCALE * x[:, names.index(BASE_FEATURE)])
    return xgb.train(PARAMS, d, num_boost_round=ROUNDS), len(use)


def check(booster, model, tasks):
    """The Go rule, done here: every row's tree sum must equal XGBoost's margin."""
    x = np.concatenate([t[2] for t in tasks[:50]])
    d = xgb.DMatrix(x)
    if BASE_SCALE:
        d.set_base_margin(BASE_SCALE * x[:, model["features"].index(BASE_FEATURE)])
    xgbtrees.check("train.py", booster.predict(d, output_margin=True), model, x)


def to_model(booster, names, note):
    return xgbtrees.to_model(booster, names, note, POOL, BASE_FEATURE, BASE_SCALE)


def main():
    global ROUNDS, BASE_SCALE
    ap = argparse.ArgumentParser()
    ap.add_argument("--features", required=True)
    ap.add_argument("--out")
    ap.add_argument("--cv", type=int, default=0)
    ap.add_argument("--cv-dir")
    ap.add_argument("--history", action="store_true")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--objective", default=PARAMS["objective"])
    ap.add_argument("--depth", type=int, default=PARAMS["max_depth"])
    ap.add_argument("--eta", type=float, default=PARAMS["eta"])
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--min-child-weight", type=float, default=PARAMS["min_child_weight"])
    ap.add_argument("--base-scale", type=float, default=BASE_SCALE)
    a = ap.parse_args()
    BASE_SCALE = a.base_scale
    PARAMS.update({"objective": a.objective, "max_depth": a.depth, "eta": a.eta, "min_child_weight": a.min_child_weight})
    ROUNDS = a.rounds
    names, tasks = load(a.features, a.history, a.limit)
    if a.cv:
        fold = folds(tasks, a.cv)
        for f in range(a.cv):
            held = sorted(r for r, g in fold.items() if g == f)
            booster, n = train([t for t in tasks if fold[t[0]] != f], names)
            note = "xgboost %s, %d tasks; held out: %s" % (PARAMS["objective"], n, " ".join(held))
            xgbtrees.write("%s/fold-%d.json" % (a.cv_dir, f), to_model(booster, names, note))
            print("train.py: fold %d: %d training tasks" % (f, n), file=sys.stderr)
    if a.out:
        booster, n = train(tasks, names)
        repos = len({t[0] for t in tasks})
        model = to_model(booster, names, "xgboost %s, %d rounds, depth %d, eta %g, %d tasks of %d repositories" % (
            PARAMS["objective"], ROUNDS, PARAMS["max_depth"], PARAMS["eta"], n, repos))
        check(booster, model, tasks)
        xgbtrees.write(a.out, model)


if __name__ == "__main__":
    main()
