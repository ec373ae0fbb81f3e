#!/usr/bin/python3
"""Train the learned function ranking (XGBoost, rank:pairwise) and measure it.

    /usr/bin/python3 bench/ranktrain/fntrain.py --features F --cv 5
    /usr/bin/python3 bench/ranktrain/fntrain.py --features F --out pkg/fnrank/model.json
    /usr/bin/python3 bench/ranktrain/fntrain.py --features F --eval E --model M

Reads the function features of `traincorpus fnfeatures` (one line per task:
the definitions rtch-hydrate ranks, in the hand-written order, their feature
rows, a label per unit and every gold unit of the task). --cv K ranks each
fold of repositories (the repositories of each language in name order,
dealt round-robin, as train.py deals them) by trees trained on the other
folds only and prints function acc@1/5/10 (every gold unit in the first k)
beside the hand-written order's, per language and overall, with the share
of tasks whose gold units are all among the ranked units (the ceiling).
--out trains on every task and writes a pkg/rank model file over
fnrank.FeatureNames, which pure Go evaluates; --eval scores another
features file (the visible sets') by --model. One thread and a fixed seed:
the same features give the same file byte for byte.
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
    "max_depth": 4,
    "min_child_weight": 1.0,
    "subsample": 1.0,
    "colsample_bytree": 1.0,
    "lambda": 1.0,
    "tree_method": "hist",
    "max_bin": 256,
    "nthread": 1,
    "seed": 0,
}
ROUNDS = 200
POOL = 1000
# BASE_SCALE times the column BASE_FEATURE (the hand-written score's log)
# is where every unit's score starts; the trees learn changes to that order.
BASE_FEATURE = "hand_log"
BASE_SCALE = 0.0


def load(path, limit=0, drop=()):
    with open(path) as f:
        head = json.loads(f.readline())
        if head.get("kind") != "traincorpus.fnfeatures":
            sys.exit("fntrain.py: error: %s:1: not a function features file" % path)
        names = list(head["names"])
        keep = [i for i, n in enumerate(names) if n not in drop]
        tasks = []
        for no, line in enumerate(f, 2):
            if limit and no > limit + 1:
                break
            t = json.loads(line)
            x = np.array(t.get("f") or np.zeros((0, len(names))), dtype=np.float32).reshape(-1, len(names))[:, keep]
            tasks.append({
                "repo": t["repo"], "lang": t["lang"], "x": x,
                "y": np.array(t.get("labels") or [], dtype=np.float32),
                "units": t.get("units") or [], "gold": t.get("gold_units") or [],
                "error": t.get("error", ""),
            })
    return [names[i] for i in keep], tasks


def folds(tasks, k):
    by_lang = {}
    for t in tasks:
        by_lang.setdefault(t["lang"], set()).add(t["repo"])
    out, nxt = {}, 0
    for lang in sorted(by_lang):
        for repo in sorted(by_lang[lang]):
            out[repo] = nxt % k
            nxt += 1
    return out


def train(tasks):
    use = [t for t in tasks if t["y"][:POOL].sum() > 0 and len(t["y"][:POOL]) > 1]
    x = np.concatenate([t["x"][:POOL] for t in use])
    y = np.concatenate([t["y"][:POOL] for t in use])
    d = xgb.DMatrix(x, label=y)
    d.set_group([len(t["y"][:POOL]) for t in use])
    if BASE_SCALE:
        d.set_base_margin(BASE_SCALE * x[:, NAMES.index(BASE_FEATURE)])
    return xgb.train(PARAMS, d, num_boost_round=ROUNDS), len(use)


def order(scores, total):
    """The first POOL best first (ties keep the hand-written order), the rest after them in the hand-written order."""
    n = len(scores)
    return sorted(range(n), key=lambda i: (-float(scores[i]), i)) + list(range(n, total))


def hits(t, idx):
    """acc@1/5/10 and whether every gold unit is ranked at all."""
    gold = set(t["gold"])
    if not gold:
        return None
    ranked = [t["units"][i] for i in idx]
    out = [float(gold <= set(ranked[:k])) for k in (1, 5, 10)]
    out.append(float(gold <= set(ranked)))
    return out


def report(rows, title):
    print("\n%s" % title)
    print("| language | tasks | ranking | acc@1 | acc@5 | acc@10 | ceiling |")
    print("|---|---|---|---|---|---|---|")
    langs = sorted({r[0] for r in rows})
    systems = sorted({r[1] for r in rows}, key=lambda s: (s != "hand", s))
    for lang in langs + ["overall"]:
        for s in systems:
            v = [r[2] for r in rows if r[1] == s and (lang == "overall" or r[0] == lang)]
            if not v:
                continue
            a = 100 * np.mean(np.array(v), axis=0)
            print("| %s | %d | %s | %.1f | %.1f | %.1f | %.1f |" % (lang, len(v), s, a[0], a[1], a[2], a[3]))


def group(t):
    """The task's row in the tables: its language, or with --by-length its goal's length."""
    if not BY_LENGTH or not len(t["x"]):
        return t["lang"]
    n = np.expm1(t["x"][0, NAMES.index("goal_terms_log")])
    return "goal %s terms" % ("< 10" if n < 10 else "10-19" if n < 20 else "20-39" if n < 40 else ">= 40")


def score_tasks(tasks, scorer, name, rows):
    for t in tasks:
        if not t["gold"]:
            continue
        lang = group(t)
        n = len(t["units"])
        h = hits(t, list(range(n)))
        rows.append((lang, "hand", h))
        if n and (not GATE or np.expm1(t["x"][0, NAMES.index("goal_terms_log")]) < GATE - 0.5):
            idx = order(scorer(t["x"][:POOL]), n)
        else:
            idx = list(range(n))
        rows.append((lang, name, hits(t, idx)))


def dmatrix(x):
    d = xgb.DMatrix(x)
    if BASE_SCALE:
        d.set_base_margin(BASE_SCALE * x[:, NAMES.index(BASE_FEATURE)])
    return d


def to_model(booster, names, note):
    return xgbtrees.to_model(booster, names, note, POOL, BASE_FEATURE, BASE_SCALE)


def check(booster, model, tasks):
    x = np.concatenate([t["x"] for t in tasks[:50] if len(t["x"])])
    xgbtrees.check("fntrain.py", booster.predict(dmatrix(x), output_margin=True), model, x)


NAMES = []
BY_LENGTH = False
GATE = 0


def main():
    global ROUNDS, POOL, BASE_SCALE, NAMES, BY_LENGTH, GATE
    ap = argparse.ArgumentParser()
    ap.add_argument("--features", required=True)
    ap.add_argument("--out")
    ap.add_argument("--cv", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--objective", default=PARAMS["objective"])
    ap.add_argument("--depth", type=int, default=PARAMS["max_depth"])
    ap.add_argument("--eta", type=float, default=PARAMS["eta"])
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--min-child-weight", type=float, default=PARAMS["min_child_weight"])
    ap.add_argument("--pool", type=int, default=POOL, help="how many of the hand-written order's first units the model re-orders")
    ap.add_argument("--base-scale", type=float, default=BASE_SCALE, help="start every score at this times the hand-written score's log")
    ap.add_argument("--gate", type=int, default=0, help="a goal of this many terms or more keeps the hand-written order (0: none)")
    ap.add_argument("--by-length", action="store_true", help="tables by the goal's number of terms rather than by language")
    ap.add_argument("--drop", default="", help="feature columns to leave out, comma-separated")
    ap.add_argument("--langs", default="", help="train and measure on these languages only")
    ap.add_argument("--eval", action="append", default=[], help="a features file to score by the trained model")
    a = ap.parse_args()
    PARAMS.update({"objective": a.objective, "max_depth": a.depth, "eta": a.eta, "min_child_weight": a.min_child_weight})
    ROUNDS, POOL, BASE_SCALE, BY_LENGTH, GATE = a.rounds, a.pool, a.base_scale, a.by_length, a.gate
    drop = set(x for x in a.drop.split(",") if x)
    names, tasks = load(a.features, a.limit, drop)
    NAMES = names
    if a.langs:
        tasks = [t for t in tasks if t["lang"] in a.langs.split(",")]
    label = "trees (%s, depth %d, %d rounds, eta %g, pool %d, base %g, gate %d)" % (PARAMS["objective"], PARAMS["max_depth"], ROUNDS, PARAMS["eta"], POOL, BASE_SCALE, GATE)
    if a.cv:
        fold = folds(tasks, a.cv)
        rows = []
        for f in range(a.cv):
            booster, n = train([t for t in tasks if fold[t["repo"]] != f])
            held = [t for t in tasks if fold[t["repo"]] == f]
            score_tasks(held, lambda x: booster.predict(dmatrix(x), output_margin=True), "learned", rows)
            print("fntrain.py: fold %d: %d training tasks, %d held out" % (f, n, len(held)), file=sys.stderr)
        report(rows, "cross-validation by repository, %d folds, %s, %d tasks" % (a.cv, label, len(tasks)))
    if a.out or a.eval:
        booster, n = train(tasks)
        repos = len({t["repo"] for t in tasks})
        model = to_model(booster, names, "xgboost %s, %d rounds, depth %d, eta %g, pool %d, %d tasks of %d repositories" % (
            PARAMS["objective"], ROUNDS, PARAMS["max_depth"], PARAMS["eta"], POOL, n, repos))
        check(booster, model, tasks)
        if a.out:
            xgbtrees.write(a.out, model)
        for e in a.eval:
            enames, etasks = load(e, 0, drop)
            if enames != names:
                sys.exit("fntrain.py: error: %s has other columns" % e)
            rows = []
            score_tasks(etasks, lambda x: xgbtrees.go_score(model, x), "learned", rows)
            report(rows, "%s scored by the model trained on every task (%s)" % (e, label))


if __name__ == "__main__":
    main()
