"""XGBoost trees as pkg/rank model files, shared by train.py and fntrain.py.

A model file holds each tree as a list of nodes: an inner node {"f", "t",
"yes", "no"} sends a row to "yes" when float32(x[f]) < t (XGBoost's own
rule), a leaf {"f": -1, "leaf"}; a row's score is its leaves summed in
float64, plus base_scale times its base_feature column when the model
starts from a base margin. rank.Model.Score is the Go side of this.
"""
import json
import sys

import numpy as np


def to_model(booster, names, note, pool, base_feature, base_scale):
    """The booster's trees as a model file's object over the columns names."""
    raw = json.loads(booster.save_raw("json"))
    trees = []
    for t in raw["learner"]["gradient_booster"]["model"]["trees"]:
        left, right = t["left_children"], t["right_children"]
        feat, cond = t["split_indices"], t["split_conditions"]
        nodes = []
        for i in range(len(left)):
            if left[i] == -1:
                nodes.append({"f": -1, "leaf": float(np.float32(cond[i]))})
            else:
                nodes.append({"f": int(feat[i]), "t": float(np.float32(cond[i])), "yes": int(left[i]), "no": int(right[i])})
        trees.append(nodes)
    m = {"kind": "trees", "features": names, "pool": pool, "trees": trees, "trained": note}
    if base_scale:
        m["base_feature"], m["base_scale"] = base_feature, base_scale
    return m


def go_score(model, x):
    """The Go rule (rank.Model.Score): float32 comparisons, leaves summed in float64."""
    got = np.zeros(len(x), dtype=np.float64)
    if model.get("base_scale"):
        got += model["base_scale"] * x[:, model["features"].index(model["base_feature"])].astype(np.float64)
    for nodes in model["trees"]:
        for r in range(len(x)):
            n = 0
            while nodes[n]["f"] >= 0:
                n = nodes[n]["yes"] if x[r, nodes[n]["f"]] < np.float32(nodes[n]["t"]) else nodes[n]["no"]
            got[r] += nodes[n]["leaf"]
    return got


def check(prog, want, model, x):
    """Exit unless the model scores the rows x as XGBoost's margins want,
    up to one constant (XGBoost's base score)."""
    base = want - go_score(model, x)
    if np.ptp(base) > 1e-3 * max(1, np.abs(want).max()):
        sys.exit("%s: error: the dumped trees do not reproduce XGBoost's scores (spread %g)" % (prog, np.ptp(base)))


def write(path, model):
    """The model file: one line of compact JSON."""
    with open(path, "w") as f:
        json.dump(model, f, separators=(",", ":"))
        f.write("\n")
