"""train: LoRA fine-tuning of a GGUF base model, or full training of a small model from its
initial weights (how the tiny house model is built).

Data: JSON lines {"input": [ids], "target": [ids]}; the loss counts target tokens only (for
full training, input is empty and every token is a target). Sequences are cut to seq_len.
Progress goes out as JSON lines; a checkpoint (trainable weights, optimiser state, step) is
written every few steps and on SIGTERM, so a killed or cancelled run resumes where it stopped.
"""
import hashlib
import json
import math
import os
import signal
import time

import torch
import torch.nn.functional as F

from . import lora, safetensors_io
from .gguf_reader import GgufFile
from .model import LORA_TARGETS, gguf_weight_names, load_gguf_model, pick_device

DEFAULTS = {
    "mode": "lora",
    "rank": 16,
    "alpha": 32,
    "targets": list(LORA_TARGETS),
    "lr": 2e-4,
    "epochs": 1,
    "seq_len": 256,
    "batch_size": 4,
    "warmup_steps": 10,
    "weight_decay": 0.0,
    "seed": 0,
    "checkpoint_every": 25,
    "checkpoint_seconds": 60,
    "grad_checkpointing": False,
    "max_steps": None,
    "pad_id": 0,
}

# Settings that change the result: a checkpoint made under others is not resumed.
_IDENTITY = ("mode", "model", "train", "rank", "alpha", "targets", "lr", "epochs", "seq_len", "batch_size",
             "warmup_steps", "weight_decay", "seed", "max_steps")


def read_examples(path, seq_len):
    out = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            ex = json.loads(line)
            ids = (ex.get("input") or []) + ex["target"]
            n_in = len(ex.get("input") or [])
            ids = ids[:seq_len]
            if len(ids) - n_in < 1:
                continue  # nothing of the target fits
            out.append((ids, n_in))
    if not out:
        raise ValueError(f"{path} holds no usable examples")
    return out


def batch_tensors(examples, pad_id):
    """-> idx (B, T), labels (B, T) with -100 where the next token is not a target."""
    T = max(len(ids) for ids, _ in examples)
    idx = torch.full((len(examples), T), pad_id, dtype=torch.long)
    labels = torch.full((len(examples), T), -100, dtype=torch.long)
    for b, (ids, n_in) in enumerate(examples):
        idx[b, : len(ids)] = torch.tensor(ids)
        # position p predicts token p+1; count it when token p+1 is a target token
        for p in range(max(n_in - 1, 0), len(ids) - 1):
            labels[b, p] = ids[p + 1]
    return idx, labels


def loss_of(model, idx, labels):
    device = model.tok_embd.device
    idx, labels = idx.to(device), labels.to(device)
    logits = model(idx)  # (B, T, V)
    return F.cross_entropy(logits.view(-1, logits.shape[-1]), labels.view(-1), ignore_index=-100)


def lr_at(step, total, base, warmup):
    if step < warmup:
        return base * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return base * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress))))


def evaluate(model, examples, batch_size, pad_id):
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for i in range(0, len(examples), batch_size):
            idx, labels = batch_tensors(examples[i : i + batch_size], pad_id)
            n = int((labels != -100).sum())
            if n:
                total += float(loss_of(model, idx, labels)) * n
                count += n
    model.train()
    return total / max(count, 1)


def run_eval(request, emit):
    """eval: mean loss per target token (and perplexity) of the model, with the adapter if given."""
    from . import lora as lora_mod

    model = load_gguf_model(GgufFile(request["model"]), pick_device(request.get("device")))
    if request.get("adapter"):
        lora_mod.load_into(model, request["adapter"])
    examples = read_examples(request["examples"], int(request.get("seq_len", 256)))
    loss = evaluate(model, examples, int(request.get("batch_size", 8)), int(request.get("pad_id", 0)))
    emit("done", loss=loss, perplexity=math.exp(min(loss, 50)), examples=len(examples))


def run_train(request, emit):
    cfg = {**DEFAULTS, **request}
    out_dir = cfg["out_dir"]
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(cfg["seed"])
    identity = hashlib.sha256(json.dumps({k: cfg.get(k) for k in _IDENTITY}, sort_keys=True).encode()).hexdigest()

    device = pick_device(cfg.get("device"))
    model = load_gguf_model(GgufFile(cfg["model"]), device)
    if cfg["mode"] == "lora":
        lora.attach(model, cfg["rank"], cfg["alpha"], cfg["targets"], seed=cfg["seed"])
        params = [p for m in (m for _, m in model.lora_modules()) for p in (m.lora_a, m.lora_b)]
    elif cfg["mode"] == "full":
        for p in model.parameters():
            p.requires_grad_(True)
        params = list(model.parameters())
    else:
        raise ValueError(f"unknown mode {cfg['mode']}")
    model.checkpointing = bool(cfg["grad_checkpointing"])
    model.train()

    examples = read_examples(cfg["train"], cfg["seq_len"])
    eval_examples = read_examples(cfg["eval"], cfg["seq_len"]) if cfg.get("eval") else []
    bs = cfg["batch_size"]
    steps_per_epoch = math.ceil(len(examples) / bs)
    total = steps_per_epoch * cfg["epochs"]
    if cfg["max_steps"]:
        total = min(total, int(cfg["max_steps"]))
    opt = torch.optim.AdamW(params, lr=cfg["lr"], weight_decay=cfg["weight_decay"], betas=(0.9, 0.999))

    ckpt_path = os.path.join(out_dir, "checkpoint.pt")
    step = 0
    if os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path, map_location=device)
        if ck.get("identity") == identity:
            with torch.no_grad():
                for p, saved in zip(params, ck["params"]):
                    p.copy_(saved)
            opt.load_state_dict(ck["optimizer"])
            step = ck["step"]
    emit("start", pid=os.getpid(), device=str(device), total_steps=total, resumed_from=step, examples=len(examples), trainable=sum(p.numel() for p in params))

    stop = {"requested": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__("requested", True))

    def save_checkpoint():
        tmp = ckpt_path + ".tmp"
        torch.save({"identity": identity, "step": step, "params": [p.detach().clone() for p in params],
                    "optimizer": opt.state_dict()}, tmp)
        os.replace(tmp, ckpt_path)  # atomic: a kill mid-write leaves the previous checkpoint
        emit("checkpoint", step=step)

    last_ckpt_step, last_ckpt_time = step, time.time()
    start_step, t0, tokens_done, loss_avg = step, time.time(), 0, None
    while step < total:
        epoch, k = divmod(step, steps_per_epoch)
        # The same order for an epoch on every run, so a resumed run sees the batches it missed.
        order = torch.randperm(len(examples), generator=torch.Generator().manual_seed(cfg["seed"] * 1000 + epoch))
        batch = [examples[int(j)] for j in order[k * bs : (k + 1) * bs]]
        idx, labels = batch_tensors(batch, cfg["pad_id"])
        for g in opt.param_groups:
            g["lr"] = lr_at(step, total, cfg["lr"], cfg["warmup_steps"])
        loss = loss_of(model, idx, labels)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        step += 1
        tokens_done += sum(len(ids) for ids, _ in batch)
        loss_avg = float(loss) if loss_avg is None else 0.9 * loss_avg + 0.1 * float(loss)
        elapsed = time.time() - t0
        emit("progress", step=step, total=total, epoch=epoch, loss=round(float(loss), 5), loss_avg=round(loss_avg, 5),
             tokens_per_second=round(tokens_done / max(elapsed, 1e-9), 1),
             eta_seconds=round(elapsed / (step - start_step) * (total - step), 1))
        if stop["requested"]:
            save_checkpoint()
            emit("cancelled", step=step)
            return
        if step - last_ckpt_step >= cfg["checkpoint_every"] or time.time() - last_ckpt_time >= cfg["checkpoint_seconds"]:
            save_checkpoint()
            last_ckpt_step, last_ckpt_time = step, time.time()

    result = {"steps": step, "final_loss": loss_avg}
    if eval_examples:
        result["eval_loss"] = evaluate(model, eval_examples, bs, cfg["pad_id"])
    if cfg["mode"] == "lora":
        path = os.path.join(out_dir, "adapter.safetensors")
        lora.save(model, path, cfg["rank"], cfg["alpha"])
        result["adapter"] = path
    else:
        path = os.path.join(out_dir, "weights.safetensors")
        named = dict(zip(gguf_weight_names(model.cfg), weights_in_gguf_order(model)))
        safetensors_io.save(path, named, {"arch": model.cfg.arch})
        result["weights"] = path
    emit("done", **result)


def weights_in_gguf_order(model):
    """The model's weights in the order of gguf_weight_names (GGUF layout, float32)."""
    out = [model.tok_embd, model.out_norm] + ([] if model.output is None else [model.output])
    for blk in model.blocks:
        out += [blk.attn_norm, blk.ffn_norm] + [blk.proj[t].weight for t in LORA_TARGETS]
        if model.cfg.arch == "qwen2":
            out += [blk.proj[t].bias for t in ("attn_q", "attn_k", "attn_v")]
    return out
