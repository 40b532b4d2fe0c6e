#!/usr/bin/env python3
"""Exploring retrieval variants on Cranfield offline, to choose one before building it in Rust.

Reads the chunks and vectors core-service stored for a project loaded by `bench/cranfield.py`
(SQLite database of `canvasctl up`), and the query vectors of a second project holding the 225
queries as labels (`--queries-project`, loaded by `--load-queries`), then scores every variant of
the keyword leg (tokeniser, stop words, BM25 parameters) and of fusion (RRF, weighted RRF, convex
combinations of normalised scores) on the judged dev queries. The tokeniser mirrors
`core-service/src/knowledge/search/tokenise.rs` (NFKD without marks, lower case, split at
non-alphanumerics, Snowball stop words, Snowball English stemmer). Figures reported in
docs/PERFORMANCE.md come from the service through `bench/cranfield.py`, not from this script.

Needs numpy and PyStemmer (`pip install numpy PyStemmer`).

    python3 bench/cranfield_explore.py --db /tmp/cran/data/canvas.db --project P --queries-project Q
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sqlite3
import statistics
import sys
import unicodedata
import uuid
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import Stemmer

sys.path.insert(0, str(Path(__file__).parent))
from cranfield import average_precision_at, judgements, ndcg_at, records  # noqa: E402

SNOWBALL_STOP = set("""a about above after again against all am an and any are as at be because been before being
below between both but by cannot could did do does doing down during each few for from further had has have having
he her here hers herself him himself his how i if in into is it its itself me more most my myself no nor not of off
on once only or other ought our ours ourselves out over own same she should so some such than that the their theirs
them themselves then there these they this those through to too under until up very was we were what when where
which while who whom why with would you your yours yourself yourselves""".split())
LUCENE_STOP = set("""a an and are as at be but by for if in into is it no not of on or such that the their then
there these they this to was will with""".split())


def tokens(text: str, stop: set[str], stemmer) -> list[str]:
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()
    out = []
    for word in re.split(r"[\W_]+", folded):
        if not word or word in stop or len(word) > 64:
            continue
        out.append(stemmer.stemWord(word) if stemmer else word)
    return out


class Bm25:
    def __init__(self, docs: list[list[str]], k1: float, b: float) -> None:
        self.k1, self.b = k1, b
        self.n = len(docs)
        self.lengths = np.array([len(d) for d in docs], dtype=np.float64)
        self.avgdl = self.lengths.mean()
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for i, d in enumerate(docs):
            for term, tf in Counter(d).items():
                self.postings[term].append((i, tf))

    def scores(self, query: list[str]) -> np.ndarray:
        out = np.zeros(self.n)
        for term in dict.fromkeys(query):
            plist = self.postings.get(term)
            if not plist:
                continue
            df = len(plist)
            idf = math.log(1 + (self.n - df + 0.5) / (df + 0.5))
            for i, tf in plist:
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avgdl)
                out[i] += idf * tf * (self.k1 + 1) / (tf + norm)
        return out


def top(scores: np.ndarray, k: int, positive_only: bool = False) -> list[tuple[int, float]]:
    idx = np.argsort(-scores, kind="stable")[:k]
    return [(int(i), float(scores[i])) for i in idx if not positive_only or scores[i] > 0]


def item_ranking(chunk_scores: dict[int, float], chunk_item: list[str]) -> list[str]:
    best: dict[str, float] = {}
    for c, s in chunk_scores.items():
        item = chunk_item[c]
        best[item] = max(best.get(item, -1e9), s)
    return [i for i, _ in sorted(best.items(), key=lambda kv: -kv[1])]


def rrf(legs, k=60.0, weights=None):
    out: dict[int, float] = defaultdict(float)
    for li, leg in enumerate(legs):
        w = weights[li] if weights else 1.0
        for rank, (c, _) in enumerate(leg):
            out[c] += w / (k + rank + 1)
    return out


def normalise(leg, how):
    if not leg:
        return {}
    s = np.array([x for _, x in leg])
    if how == "minmax":
        lo, hi = s.min(), s.max()
        n = (s - lo) / (hi - lo) if hi > lo else np.ones_like(s)
    elif how == "max":  # divide by the best score: keeps the zero of BM25 and of cosine
        n = s / s.max() if s.max() > 0 else s
    elif how == "dbsf":  # distribution-based: mean ± 3 standard deviations
        mu, sd = s.mean(), s.std()
        lo, hi = mu - 3 * sd, mu + 3 * sd
        n = (s - lo) / (hi - lo) if hi > lo else np.ones_like(s)
    elif how == "z":
        sd = s.std()
        n = (s - s.mean()) / sd if sd > 0 else np.zeros_like(s)
    else:
        raise ValueError(how)
    return {c: float(v) for (c, _), v in zip(leg, n)}


def convex(keyword, semantic, alpha, how, missing=0.0):
    """alpha × semantic + (1 − alpha) × keyword, each normalised over its own list."""
    k, s = normalise(keyword, how), normalise(semantic, how)
    out = {}
    for c in set(k) | set(s):
        out[c] = alpha * s.get(c, missing) + (1 - alpha) * k.get(c, missing)
    return out


def evaluate(rankings: dict[int, list[str]], qrels, doc_of_item):
    nd, ap, rc = [], [], []
    for qid, gains in sorted(qrels.items()):
        ranked = [doc_of_item.get(i, "") for i in rankings[qid]][:100]
        nd.append(ndcg_at(ranked, gains, 10))
        ap.append(average_precision_at(ranked, set(gains), 100))
        rc.append(len(set(gains) & set(ranked)) / len(gains))
    return statistics.mean(nd), statistics.mean(ap), statistics.mean(rc)


def load_chunks(db: Path, project: str):
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT item_id, text, embedding FROM knowledge_chunks WHERE project_id = ? ORDER BY id",
        (uuid.UUID(project).bytes,),
    ).fetchall()
    items = [str(uuid.UUID(bytes=r[0])) for r in rows]
    texts = [r[1] for r in rows]
    vectors = np.stack([np.frombuffer(r[2], dtype="<f4") for r in rows]) if rows and rows[0][2] else None
    return items, texts, vectors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--project", required=True)
    ap.add_argument("--queries-project", required=True)
    ap.add_argument("--map", type=Path, help="item → document map (default .cranfield-PROJECT.json)")
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/cranfield")
    ap.add_argument("--qrels", default="cranqrel.dev")
    args = ap.parse_args()

    doc_of_item = json.loads((args.map or Path(f".cranfield-{args.project}.json")).read_text())
    queries = records(args.data / "cran.qry")
    qrels = judgements(args.data / args.qrels)

    chunk_item, texts, vectors = load_chunks(args.db, args.project)
    _, query_texts, query_vectors = load_chunks(args.db, args.queries_project)
    qvec = {t.strip(): v for t, v in zip(query_texts, query_vectors)}
    print(f"{len(texts)} chunks of {len(set(chunk_item))} items; {len(qvec)} query vectors", file=sys.stderr)

    def query_text(qid):
        return " ".join(queries[qid - 1]["W"].split())

    depth = 60  # the service's depth for maxResults 20: max(50, 3 × 20)
    rows = []

    def report(name, rankings):
        rows.append((name, *evaluate(rankings, qrels, doc_of_item)))
        print(f"| {name} | {rows[-1][1]:.4f} | {rows[-1][2]:.4f} | {rows[-1][3]:.4f} |", flush=True)

    print("| variant | nDCG@10 | MAP@100 | Recall@100 |\n|---|---|---|---|")
    english = Stemmer.Stemmer("english")
    porter = Stemmer.Stemmer("porter")
    keyword_variants = {
        "bm25 snowball-stop english k1=1.2 b=0.75": (SNOWBALL_STOP, english, 1.2, 0.75),
        "bm25 no-stop english k1=1.2 b=0.75": (set(), english, 1.2, 0.75),
        "bm25 lucene-stop english k1=1.2 b=0.75": (LUCENE_STOP, english, 1.2, 0.75),
        "bm25 snowball-stop porter k1=1.2 b=0.75": (SNOWBALL_STOP, porter, 1.2, 0.75),
        "bm25 snowball-stop no-stem k1=1.2 b=0.75": (SNOWBALL_STOP, None, 1.2, 0.75),
        "bm25 snowball-stop english k1=0.9 b=0.4": (SNOWBALL_STOP, english, 0.9, 0.4),
    }
    keyword_legs = {}
    for name, (stop, stem, k1, b) in keyword_variants.items():
        index = Bm25([tokens(t, stop, stem) for t in texts], k1, b)
        legs = {qid: top(index.scores(tokens(query_text(qid), stop, stem)), max(depth, 100), True) for qid in qrels}
        keyword_legs[name] = legs
        report(name, {q: item_ranking(dict(l[:100]), chunk_item) for q, l in legs.items()})

    semantic = {}
    for qid in qrels:
        v = qvec[query_text(qid)]
        semantic[qid] = top(vectors @ v, max(depth, 100))
    report("semantic (cosine)", {q: item_ranking(dict(l[:100]), chunk_item) for q, l in semantic.items()})

    kw = keyword_legs["bm25 snowball-stop english k1=1.2 b=0.75"]

    def fused(fn):
        return {q: item_ranking(fn(kw[q][:depth], semantic[q][:depth]), chunk_item) for q in qrels}

    report("rrf k=60", fused(lambda k, s: rrf([k, s])))
    for kk in (10, 30):
        report(f"rrf k={kk}", fused(lambda k, s, kk=kk: rrf([k, s], kk)))
    for w in (0.3, 0.4, 0.6, 0.7):
        report(f"rrf k=60 semantic weight {w}", fused(lambda k, s, w=w: rrf([k, s], 60, [2 * (1 - w), 2 * w])))
    for how in ("minmax", "max", "dbsf", "z"):
        for alpha in (0.3, 0.4, 0.5, 0.6, 0.7):
            report(f"convex {how} alpha={alpha}", fused(lambda k, s, a=alpha, h=how: convex(k, s, a, h)))


if __name__ == "__main__":
    main()
