"""decode: greedy decoding of many prompts at once with the trainer's own model (model.py),
so a GPU machine can write a Voice's pairs (the base model paraphrasing each passage) in PyTorch.
Greedy on the same GGUF file, it gives llama.cpp's tokens (generate.test.ts).

The prompts go as one batch (or chunks of batch_size): left-padded to one length, so every row's
next token comes from the last column; a mask hides the pads and each row counts positions from
its own first real token, so a row decodes as it would alone. The prompts are read in blocks of
columns (prefill), then the whole batch advances one token per step with a KV cache. A row ends at a
stop id (not part of its output) or its token budget; the batch sheds finished rows as it goes.

Products run in bfloat16 on a GPU that has it, and on a CPU when asked (mixed_precision,
precision.generation_bf16), with the frozen weights cast once (Model.cast_frozen); float32
elsewhere (the tokens generate.test.ts compares with llama.cpp's). The generate command
(generate.py) decodes in one process, or on a CPU in bfloat16 over two (generate_parallel.py).

Shapes: B rows, T prompt columns (after padding), S cache columns at most (W allocated so far),
C embedding, H heads, K kv heads, G = H/K query heads per kv head, D head dim, V vocab.
"""
import itertools
import math

import torch
import torch.nn.functional as F

from . import lora
from .attention import SDPA, use_sdpa
from .model import load_model, rms_norm, rope_tables
from .precision import row_multiple

PAD_ID = 0  # any valid id: pads are masked out and never read back
# Prompt columns read in one pass. In blocks, a block's queries see only the keys up to its end:
# the masked upper part of the (T, T) scores is not computed, and the scores held at once are
# (B, H, 256, T). 32 prompts of 313-469 tokens at 135M's shape, bfloat16, two CPU threads: 13.6-14.1 s
# against 16.7-17.6 s in one pass (64 and 128 columns alike), the same next tokens.
PREFILL_COLUMNS = 256
# Cache columns added at a time as the answers grow. A step attends over every column allocated
# (reading a slice of the cache would copy it in each product), so the cache holds the prompts and
# at most this many more, not room for the longest budget from the start (a paraphrase's budget
# is 1.5 times its passage's tokens). 16 prompts of 380-460 tokens to their budgets at 135M's
# shape, bfloat16, one CPU thread: 103.3 and 108.4 s against 117.1 and 121.8 s.
CACHE_COLUMNS = 128


def attend(q, k, v, mask):
    """q (B, H, Tq, D), k and v (B, K, S, D), mask (B, 1, Tq, S) bool, True where a query may
    look -> (B, H, Tq, D). The cache keeps the K kv heads; each serves G = H/K query heads."""
    B, H, Tq, D = q.shape
    K = k.shape[1]
    G = H // K
    if Tq > 1 and use_sdpa():
        # Prefill: SDPA wants one key head per query head; repeat for this call only.
        return SDPA(q, k.repeat_interleave(G, dim=1), v.repeat_interleave(G, dim=1), attn_mask=mask)
    # A decoding step (or no SDPA): a kv head's G query heads as one matrix product, so the cache
    # is read once and never copied per query head. Query head h = k*G + g, as repeat_interleave.
    # The scale on q, not on the scores (S/D times fewer values); the mask in place: reading a
    # batch's prompts, the (B, K, G*Tq, S) scores are the largest thing it handles.
    att = (q.reshape(B, K, G * Tq, D) * (1 / math.sqrt(D))) @ k.transpose(-2, -1)  # (B, K, G*Tq, S)
    att = att.view(B, K, G, Tq, -1).masked_fill_(~mask.unsqueeze(1), float("-inf")).softmax(-1)
    return (att.view(B, K, G * Tq, -1) @ v).view(B, H, Tq, D)


class KVCache:
    """Keys and values of every layer, (B, K, W, D) each, and which columns are real tokens (B, W).
    W, the columns allocated, grows as the answers do (grow)."""

    def __init__(self, cfg, B, W, device, dtype):
        shape = (B, cfg.n_head_kv, W, cfg.head_dim)
        self.k = [torch.zeros(shape, device=device, dtype=dtype) for _ in range(cfg.n_layer)]
        self.v = [torch.zeros(shape, device=device, dtype=dtype) for _ in range(cfg.n_layer)]
        self.real = torch.ones(B, W, dtype=torch.bool, device=device)  # (B, W); pads set False

    @property
    def width(self):
        return self.real.shape[1]

    def grow(self, W):
        """W columns from now on, the new ones empty: one copy of the cache, a layer at a time (one
        layer's old tensor is all that is held beside the new cache)."""
        B, K, old, D = self.k[0].shape
        for layers in (self.k, self.v):
            for i, x in enumerate(layers):
                layers[i] = torch.cat([x, x.new_zeros(B, K, W - old, D)], dim=2)
        self.real = torch.cat([self.real, self.real.new_ones(B, W - old)], dim=1)

    def keep(self, rows):
        """Only these rows (a LongTensor of row indices) from now on."""
        self.k = [k[rows] for k in self.k]
        self.v = [v[rows] for v in self.v]
        self.real = self.real[rows]


def block_step(blk, x, rot, cache, layer, start, mask):
    """One block over new columns start..start+Tn of every row: x (B, Tn, C), rot the rope_tables
    of their positions (B, Tn) -> (B, Tn, C). Writes their keys and values into the cache; mask
    (B, 1, Tn, W) says which of the cache's first W columns each new column sees."""
    q, k, v = blk.qkv(x, rot)
    end = start + x.shape[1]
    keys, values = cache.k[layer], cache.v[layer]
    keys[:, :, start:end] = k
    values[:, :, start:end] = v
    # A decoding step's mask spans every column allocated, so it reads the cache as it lies: a
    # slice of it is copied by each product that reads it, two thirds of a step on two CPU cores.
    W = mask.shape[-1]
    if W < keys.shape[2]:
        keys, values = keys[:, :, :W], values[:, :, :W]
    return blk.finish(x, attend(q.to(keys.dtype), keys, values, mask))


def forward_step(model, idx, pos, cache, start, mask):
    """idx (B, Tn) new tokens at cache columns start..start+Tn -> next-token logits (B, V) of
    each row's last new column."""
    x = F.embedding(idx, model.tok_embd)  # (B, Tn, C)
    rot = rope_tables(pos, model.cfg.head_dim, model.cfg.rope_base, model.cfg.rope_mode)
    for layer, blk in enumerate(model.blocks):
        x = block_step(blk, x, rot, cache, layer, start, mask)
    h = rms_norm(x[:, -1], model.out_norm, model.cfg.rms_eps)  # (B, C)
    return model.logits(h).float()


def greedy_chunk(model, prompts, max_new, stop_ids, on_done, cache_dtype, multiple=1, on_token=None,
                 prefill_columns=PREFILL_COLUMNS, cache_columns=CACHE_COLUMNS):
    """Greedy answers of one batch of prompts (each non-empty, with a budget of at least 1). The
    prompt columns are padded until the prefill's B * T rows are a multiple of `multiple`
    (row_multiple: the CPU's slow bfloat16 row counts); the extra columns are left pads too.
    on_token() is called as the batch has its next token: after the prefill, then each step.
    The prompts are read prefill_columns at a time; the cache grows cache_columns at a time."""
    device = model.tok_embd.device
    B, T = len(prompts), max(len(p) for p in prompts)
    step = multiple // math.gcd(B, multiple)  # the fewest columns that add a multiple of rows
    T = -(-T // step) * step
    S = T + max(max_new)  # prompt columns, then one per token fed back (fewer than max_new)
    lens = torch.tensor([len(p) for p in prompts], device=device)  # (B,)
    idx = torch.full((B, T), PAD_ID, dtype=torch.long, device=device)
    for b, p in enumerate(prompts):
        idx[b, T - len(p) :] = torch.tensor(p, dtype=torch.long)
    cache = KVCache(model.cfg, B, min(S, T + cache_columns), device, cache_dtype)
    columns = torch.arange(S, device=device)  # (S,)
    cache.real[:, :T] = torch.arange(T, device=device)[None, :] >= (T - lens)[:, None]  # (B, T) left pads False
    pos = (cache.real[:, :T].long().cumsum(1) - 1).clamp(min=0)  # (B, T): 0 at a row's first real token

    # Prefill: causal, no pads as keys. A pad query also sees itself, so its row of the softmax is
    # never all -inf (NaN there would reach real rows through 0 * NaN in att @ v). Read
    # prefill_columns at a time, each block's queries against the keys up to its end only.
    causal = torch.ones(T, T, dtype=torch.bool, device=device).tril()
    mask = (causal[None] & cache.real[:, None, :T]) | torch.eye(T, dtype=torch.bool, device=device)[None]
    for s in range(0, T, prefill_columns):
        e = min(T, s + prefill_columns)
        logits = forward_step(model, idx[:, s:e], pos[:, s:e], cache, s, mask[:, None, s:e, :e])  # (B, V)

    rows = list(range(B))  # chunk row of each row still in the batch
    outs = [[] for _ in range(B)]
    done = [False] * B
    t = T  # the cache column the next fed token takes
    while True:
        nxt = logits.argmax(-1)  # (B',) ties go to the lowest id
        if on_token:
            on_token()
        for r, tok in zip(rows, nxt.tolist()):
            if done[r]:
                continue
            if tok in stop_ids:
                done[r] = True
            else:
                outs[r].append(tok)
                done[r] = len(outs[r]) >= max_new[r]
            if done[r] and on_done:
                on_done(r, outs[r])
        alive = [i for i, r in enumerate(rows) if not done[r]]
        if not alive:
            return outs
        # Finished rows ride along (their tokens are ignored) until a quarter of the batch has
        # finished: shedding them copies the whole cache.
        if len(alive) <= 0.75 * len(rows):
            keep = torch.tensor(alive, device=device)
            cache.keep(keep)
            lens, nxt = lens[keep], nxt[keep]
            rows = [rows[i] for i in alive]
        if t == cache.width:
            cache.grow(min(S, t + cache_columns))
        step_pos = (lens + (t - T))[:, None]  # (B', 1): a row's generated tokens follow its prompt
        # (B', 1, 1, W): up to the fed token
        step_mask = (cache.real & (columns[: cache.width] <= t))[:, None, None]
        logits = forward_step(model, nxt[:, None], step_pos, cache, t, step_mask)
        t += 1


def by_length(prompts, max_new):
    """The indices of the prompts with a budget, shortest prompt first (ties in their order)."""
    return sorted((i for i, n in enumerate(max_new) if n > 0), key=lambda i: len(prompts[i]))


def plan_chunks(prompts, max_new, batch_size=None):
    """The batches greedy_batch decodes: lists of prompt indices (those with a budget), and the
    most tokens each can take (its largest budget)."""
    # Similar lengths side by side: a chunk pads less, and its rows' budgets are alike.
    todo = by_length(prompts, max_new)
    size = batch_size or len(todo) or 1
    chunks = [todo[c : c + size] for c in range(0, len(todo), size)]
    return chunks, [max(max_new[i] for i in chunk) for chunk in chunks]


def greedy_batch(model, prompts, max_new, stop_ids, on_done=None, batch_size=None, bf16=False, on_progress=None,
                 prefill_columns=PREFILL_COLUMNS, cache_columns=CACHE_COLUMNS):
    """Greedy answers to token-id prompts: a list of generated id lists, each ending before its
    first stop id or at its max_new tokens. on_done(i, ids) is called as prompt i's answer ends.
    bf16: products in bfloat16 under autocast (the model's frozen weights best cast once before,
    Model.cast_frozen), the cache too. on_progress(done, total) as each token of a batch comes:
    total counts each chunk's largest budget (the most tokens it can take), done the tokens its
    chunks have taken so far, all of a chunk's budget once it ends (its rows may stop early)."""
    if len(max_new) != len(prompts):
        raise ValueError(f"{len(prompts)} prompts but {len(max_new)} token budgets")
    if any(len(p) == 0 for p in prompts):
        raise ValueError("a prompt has no tokens")
    stop_ids = set(stop_ids)
    device = model.tok_embd.device
    cache_dtype = torch.bfloat16 if bf16 else torch.float32
    multiple = row_multiple(device, bf16)
    outputs = [[] for _ in prompts]
    if on_done:
        for i, n in enumerate(max_new):
            if n <= 0:
                on_done(i, [])
    chunks, largest = plan_chunks(prompts, max_new, batch_size)
    total = sum(largest)
    taken = 0  # tokens the ended chunks could take

    def progress(k):
        if on_progress:
            on_progress(taken + k, total)

    model.eval()
    with torch.inference_mode(), torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=bf16):
        for chunk, budget in zip(chunks, largest):
            report = (lambda r, ids, chunk=chunk: on_done(chunk[r], ids)) if on_done else None
            tokens = itertools.count(1)
            outs = greedy_chunk(
                model, [prompts[i] for i in chunk], [max_new[i] for i in chunk], stop_ids, report, cache_dtype,
                multiple, on_token=lambda: progress(next(tokens)), prefill_columns=prefill_columns,
                cache_columns=cache_columns,
            )
            for i, ids in zip(chunk, outs):
                outputs[i] = ids
            taken += budget
            progress(0)
    return outputs


def column_settings(request):
    """greedy_batch's column settings of a request: the prompt columns its batches read in one
    pass, and the cache columns added at a time."""
    return {"prefill_columns": int(request.get("prefill_columns") or PREFILL_COLUMNS),
            "cache_columns": int(request.get("cache_columns") or CACHE_COLUMNS)}


def decoding_model(request, device, bf16):
    """The request's model (and adapter) on `device`, its frozen matrices cast once where the
    products run in bfloat16."""
    model = load_model(request["model"], device)
    if request.get("adapter"):
        lora.load_into(model, request["adapter"])
    if bf16:
        model.cast_frozen(torch.bfloat16)
    return model
