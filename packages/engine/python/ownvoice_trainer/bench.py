"""bench-train: training throughput of the trainer against a plain PyTorch loop of the same shape.

Both train LoRA on the same GGUF model and the same random token batches for the same number
of steps; the plain loop is the textbook one (forward, cross-entropy, backward, AdamW step) with
none of the trainer's bookkeeping. Reports tokens/s of each, their ratio, and peak memory.
"""
import os
import resource
import tempfile
import time

import torch
import torch.nn.functional as F

from . import lora
from .gguf_reader import GgufFile
from .model import LORA_TARGETS, load_gguf_model, pick_device
from .train import run_train


def _peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_bench_train(request, emit):
    steps, seq, batch = int(request["steps"]), int(request["seq_len"]), int(request["batch_size"])
    rank = int(request.get("rank", 16))
    g = GgufFile(request["model"])
    vocab = len(g.kv["tokenizer.ggml.tokens"])
    gen = torch.Generator().manual_seed(0)
    tokens = torch.randint(0, vocab, (steps * batch, seq), generator=gen)

    # The trainer, through its real entry point, on the same token sequences.
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "train.jsonl")
        with open(data, "w") as f:
            for row in tokens.tolist():
                f.write('{"input": [], "target": %s}\n' % row)
        times = {}

        def on_event(event, **fields):
            if event == "progress":
                times.setdefault("first", time.time())
                times["last"] = time.time()
                times["steps"] = fields["step"]

        run_train({"mode": "lora", "model": request["model"], "train": data, "out_dir": d, "rank": rank,
                   "alpha": 2 * rank, "targets": list(LORA_TARGETS), "seq_len": seq, "batch_size": batch,
                   "max_steps": steps, "epochs": 1, "checkpoint_every": 10**9, "checkpoint_seconds": 10**9,
                   "grad_checkpointing": bool(request.get("grad_checkpointing", False))}, on_event)
        # The first step warms up allocators and threads; time the rest.
        trainer_tps = (times["steps"] - 1) * batch * seq / (times["last"] - times["first"])
    trainer_peak = _peak_rss_mib()

    # A plain loop of the same shape.
    device = pick_device(request.get("device"))
    model = load_gguf_model(g, device)
    lora.attach(model, rank, 2 * rank, list(LORA_TARGETS))
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-4)
    model.train()
    t_first = None
    for s in range(steps):
        idx = tokens[s * batch : (s + 1) * batch].to(device)
        logits = model(idx)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, vocab), idx[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if s == 0:
            t_first = time.time()
    if device.type == "cuda":
        torch.cuda.synchronize()
    plain_tps = (steps - 1) * batch * seq / (time.time() - t_first)
    emit("done", trainer_tokens_per_second=trainer_tps, plain_tokens_per_second=plain_tps,
         ratio=trainer_tps / plain_tps, peak_rss_mib=max(trainer_peak, _peak_rss_mib()),
         trainable=sum(p.numel() for p in params), threads=torch.get_num_threads(), device=str(device))
