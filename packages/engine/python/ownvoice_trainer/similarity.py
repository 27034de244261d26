"""similarity: how alike in meaning each pair of texts is, as the cosine of their sentence
embeddings (sentence_encoder.py): 1 for the same meaning, near 0 for unrelated texts. The
harness measures content kept by a rewrite as its similarity to its input.

Request: {"model": {"weights", "vocab", "config"} (files of the embedding model, fetched once by
scripts/fetch-embedding-model.sh), "pairs": [[a, b], ...]}. Answer: "done" with "similarities",
one float per pair, in order.
"""
import time

from .sentence_encoder import load_encoder


def run_similarity(request, emit):
    pairs = request["pairs"]
    if any(len(p) != 2 or not all(isinstance(t, str) for t in p) for p in pairs):
        raise ValueError("similarity takes pairs of two texts")
    started = time.time()
    encoder = load_encoder(request["model"])
    # Each distinct text embedded once: a harness's inputs recur in every model's pairs.
    texts = sorted({t for p in pairs for t in p})
    index = {t: i for i, t in enumerate(texts)}
    e = encoder.embed(texts) if texts else None
    similarities = [float(e[index[a]] @ e[index[b]]) for a, b in pairs]
    emit("done", similarities=similarities, texts=len(texts), seconds=round(time.time() - started, 3))
