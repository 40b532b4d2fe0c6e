#!/usr/bin/env python3
"""Embedding throughput of all-MiniLM-L6-v2 in Python's sentence-transformers (PyTorch, CPU).

The counterpart of `cargo bench -p canvas-embed --bench embed_throughput`: the same model files
(the directory `ensure_model` provisions), the same 64 sentences, the same 64 chunks of 200 word
pieces, the same warm-up (2 calls) and rounds, and the same output lines, so the two can be
compared line by line on one machine.

Set-up (a venv outside the clone; ~6 GB, since the package index's Linux torch wheel brings the
CUDA libraries too, unused here; the CPU-only index is not reachable from this machine):
    python3 -m venv ~/.cache/canvas/st-venv
    ~/.cache/canvas/st-venv/bin/pip install sentence-transformers   # brings torch
Run (offline, on the directory `ensure_model` provisioned):
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 ~/.cache/canvas/st-venv/bin/python bench/st_embed_throughput.py
"""

import argparse
import os
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_MODEL = Path(os.environ.get("CANVAS_MODEL_CACHE", Path.home() / ".cache" / "canvas" / "models"))
DEFAULT_MODEL = DEFAULT_MODEL / "all-MiniLM-L6-v2"


def timed(model, texts, rounds):
    for _ in range(2):
        model.encode(texts, batch_size=32, normalize_embeddings=True)
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        model.encode(texts, batch_size=32, normalize_embeddings=True)
        times.append(time.perf_counter() - started)
    return times


def report(name, texts, times):
    median, best = statistics.median(times), min(times)
    print(
        f"{name}: {len(texts)} texts per call, median {median:.3f} s -> {len(texts) / median:.1f} texts/s "
        f"(best {len(texts) / best:.1f} texts/s, {len(times)} rounds)"
    )


def chunks_of(model, document, size, count):
    """Windows of `size` word pieces without overlap, cut at token offsets like the Rust chunker."""
    enc = model.tokenizer(document, add_special_tokens=False, return_offsets_mapping=True)
    offsets = [o for o in enc["offset_mapping"] if o[1] > o[0]]
    chunks = []
    for start in range(0, len(offsets), size):
        window = offsets[start : start + size]
        chunks.append(document[window[0][0] : window[-1][1]])
    return chunks[:count]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="model directory")
    parser.add_argument("--sentences", type=Path, default=REPO / "embedder" / "benches" / "sentences.txt")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    import torch
    from sentence_transformers import SentenceTransformer

    started = time.perf_counter()
    model = SentenceTransformer(str(args.model), device="cpu")
    print(f"model load: {time.perf_counter() - started:.3f} s (torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, max_seq_length {model.max_seq_length})")

    a, b = model.encode(["A man is eating food.", "A man is eating a piece of bread."], normalize_embeddings=True)
    print(f"cosine similarity check: {float(a @ b):.4f}")

    sentences = [line for line in args.sentences.read_text().splitlines() if line.strip()]
    assert len(sentences) == 64, len(sentences)
    report("short_sentences", sentences, timed(model, sentences, args.rounds))

    chunks = chunks_of(model, " ".join(sentences) * 40, 200, 64)
    assert len(chunks) == 64, len(chunks)
    report("chunks_200", chunks, timed(model, chunks, args.rounds))

    single = timed(model, sentences[:1], args.rounds)
    print(f"single_sentence: median latency {statistics.median(single) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
