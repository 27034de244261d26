"""train: LoRA fine-tuning of a GGUF base model, or full training of a small model from its
initial weights (how the tiny house model is built): the step loop and the train command.

Data: JSON lines of examples, each step's batch packed into one row (loss.py), its products in
bfloat16 where asked or fast (precision.py), a CPU step's passes shared over processes
(data_parallel.py). Progress goes out as JSON lines; a checkpoint (trainable weights, optimiser
state, step) is written every few steps and on SIGTERM, so a killed or cancelled run resumes
where it stopped. With "stop_when_eval_stops_improving" and an eval set, the eval loss
(evaluation.py) is measured after every epoch; training stops at the first epoch that does not
lower it and keeps the best weights. With "eval_base", the eval loss is also measured before the
first step: a LoRA starts at the base model (B = 0), so that is the base model's loss, with no
second process loading it again.
"""
import hashlib
import json
import math
import os
import signal
import time

import torch

from . import lora, safetensors_io
from .data_parallel import processes_for, split_step, start_helpers
from .evaluation import evaluate
from .loss import accumulate_gradients, loss_sum, read_examples, targets_in
from .model import LORA_TARGETS, gguf_weight_names, load_model, model_reads, peak_mib, pick_device
from .precision import row_multiple, takes_bf16

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
    "stop_when_eval_stops_improving": False,
    "eval_base": False,
    # Tokens a forward/backward pass takes at most; a bigger batch is summed over several. None: the
    # whole batch; "auto": as many as fit the device (micro_batch_budget).
    "micro_batch_tokens": None,
    # Training matrix products in bfloat16 (weights, optimiser and eval stay float32): True, False,
    # or "auto": where the device runs them measurably faster.
    "mixed_precision": False,
    # Processes a LoRA step's passes are shared out over on the CPU (data_parallel.py): an int, or
    # "auto": two where the products run in bfloat16 on a CPU of at least two threads.
    "processes": "auto",
    # Memory the helpers may take, in MiB; None: what the system has available after the first step.
    "available_mib": None,
}

# Settings that change the result: a checkpoint made under others is not resumed.
_IDENTITY = ("mode", "model", "train", "rank", "alpha", "targets", "lr", "epochs", "seq_len", "batch_size",
             "warmup_steps", "weight_decay", "seed", "max_steps")


def lr_at(step, total, base, warmup):
    # Warm-up takes at most a tenth of the run: a real model's Voice from a small upload trains
    # for a few dozen steps, and 20 steps of warm-up left it near the base model (decision 32).
    warmup = min(warmup, max(1, total // 10))
    if step < warmup:
        return base * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return base * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress))))


# "auto" on the CPU: a bigger pass is no faster there, and one 1024-token example of the 360M
# model already takes about 3 GB.
CPU_MICRO_BATCH_TOKENS = 1024


def micro_batch_budget(model, device, bf16, share=0.5, probe_tokens=256):
    """Tokens one forward/backward pass may take on this device ("auto"). On CUDA: measured, not
    guessed: a probe sequence's peak memory per token (activations kept for the backward pass
    and the logits where targets are predicted, both linear in tokens), and as many tokens as
    fit in `share` of the memory free now, the rest left for the optimiser and the allocator's
    slack. On an H200 that is the whole batch of the Voice presets: one pass a step, not four."""
    if device.type != "cuda":
        return CPU_MICRO_BATCH_TOKENS
    torch.cuda.synchronize(device)
    torch.cuda.reset_peak_memory_stats(device)
    before = torch.cuda.memory_allocated(device)
    probe = [(list(range(probe_tokens)), 0)]  # ids below any vocabulary's size
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=bf16):
        total, _ = loss_sum(model, probe)
    total.backward()
    per_token = (torch.cuda.max_memory_allocated(device) - before) / probe_tokens
    model.zero_grad(set_to_none=True)
    free, _ = torch.cuda.mem_get_info(device)
    return max(probe_tokens, int(share * free / per_token))


def micro_batches(batch, max_tokens):
    """The batch cut, in order, into runs of at most max_tokens tokens (at least one example each)."""
    if not max_tokens:
        return [batch]
    out, run, size = [], [], 0
    for ex in batch:
        if run and size + len(ex[0]) > max_tokens:
            out.append(run)
            run, size = [], 0
        run.append(ex)
        size += len(ex[0])
    return out + [run]


def run_train(request, emit):
    cfg = {**DEFAULTS, **request}
    out_dir = cfg["out_dir"]
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(cfg["seed"])
    optional = ("stop_when_eval_stops_improving", "mixed_precision", "eval_base")  # in the identity only when set
    keys = _IDENTITY + tuple(k for k in optional if cfg[k])
    identity = hashlib.sha256(json.dumps({k: cfg.get(k) for k in keys}, sort_keys=True).encode()).hexdigest()

    device = pick_device(cfg.get("device"))
    # LoRA leaves the base weights as they are: a serving trainer keeps them for the next command.
    model = load_model(cfg["model"], device, shared=cfg["mode"] == "lora")
    if cfg["mode"] == "lora":
        lora.attach(model, cfg["rank"], cfg["alpha"], cfg["targets"], seed=cfg["seed"])
        params = lora.parameters(model)
    elif cfg["mode"] == "full":
        for p in model.parameters():
            p.requires_grad_(True)
        params = list(model.parameters())
    else:
        raise ValueError(f"unknown mode {cfg['mode']}")
    model.checkpointing = bool(cfg["grad_checkpointing"])
    model.train()
    bf16 = takes_bf16(device, cfg["mixed_precision"])

    examples = read_examples(cfg["train"], cfg["seq_len"])
    eval_examples = read_examples(cfg["eval"], cfg["seq_len"]) if cfg.get("eval") else []
    bs = cfg["batch_size"]
    steps_per_epoch = math.ceil(len(examples) / bs)
    total = steps_per_epoch * cfg["epochs"]
    if cfg["max_steps"]:
        total = min(total, int(cfg["max_steps"]))
    # Early stopping only when asked for: a pretraining run (the house model) keeps every step.
    early = bool(cfg["stop_when_eval_stops_improving"]) and bool(eval_examples) and cfg["epochs"] > 1
    # One fused kernel for every parameter's update on CUDA, rather than a few per parameter.
    fused = {"fused": True} if device.type == "cuda" else {}
    opt = torch.optim.AdamW(params, lr=cfg["lr"], weight_decay=cfg["weight_decay"], betas=(0.9, 0.999), **fused)
    micro = cfg["micro_batch_tokens"]
    if micro == "auto":
        micro = micro_batch_budget(model, device, bf16)
    threads = torch.get_num_threads()
    processes = processes_for(cfg["processes"], device, cfg["mode"], bf16, threads)
    # Helpers start after the run's first step, which the trainer takes alone on all its threads:
    # its peak memory is then what each helper will need.
    helpers = None
    on_term = None
    try:
        ckpt_path = os.path.join(out_dir, "checkpoint.pt")
        step = 0
        # best: {"loss", "epoch", "params", "example_losses"} of the epoch with the lowest eval loss so far;
        # the base's held-out losses, mean and per example, for the drop's spread over examples
        state = {"best": None, "stopped": False, "eval_losses": [], "loss_avg": None, "base_eval_loss": None,
                 "base_example_losses": None}
        if os.path.exists(ckpt_path):
            ck = torch.load(ckpt_path, map_location=device)
            if ck.get("identity") == identity:
                with torch.no_grad():
                    for p, saved in zip(params, ck["params"]):
                        p.copy_(saved)
                opt.load_state_dict(ck["optimizer"])
                step = ck["step"]
                state.update(ck.get("state", {}))
        emit("start", pid=os.getpid(), device=str(device), bf16=bf16, total_steps=total, resumed_from=step, examples=len(examples),
             trainable=sum(p.numel() for p in params), micro_batch_tokens=micro, row_multiple=row_multiple(device, bf16),
             processes=processes, model_reads=model_reads())

        stop = {"requested": False}
        # Until the run ends: a serving trainer's next command is stopped by SIGTERM as usual.
        on_term = signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__("requested", True))

        def save_checkpoint():
            tmp = ckpt_path + ".tmp"
            torch.save({"identity": identity, "step": step, "params": [p.detach().clone() for p in params],
                        "optimizer": opt.state_dict(), "state": state}, tmp)
            os.replace(tmp, ckpt_path)  # atomic: a kill mid-write leaves the previous checkpoint
            emit("checkpoint", step=step)

        def held_out_loss():
            # In training's own arithmetic: with bfloat16 products, two and a half times as fast on
            # two cores as float32 (3 examples of 700 tokens at 135M: 4.4 s against 10.8 s), and the
            # loss agreed to the fourth decimal. The base and the Voice are measured alike.
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=bf16):
                return evaluate(model, eval_examples, bs)  # (mean, per example)

        def evaluate_epoch():
            """After an epoch: its eval loss, the best weights so far, and whether to stop."""
            loss, per_example = held_out_loss()
            epoch = math.ceil(step / steps_per_epoch)
            state["eval_losses"].append(round(loss, 6))
            best = state["best"]
            if best is None or loss < best["loss"]:
                state["best"] = {"loss": loss, "epoch": epoch, "params": [p.detach().clone() for p in params],
                                 "example_losses": per_example}
            else:
                state["stopped"] = True
            emit("eval", epoch=epoch, step=step, eval_loss=round(loss, 6), best_epoch=state["best"]["epoch"])

        # A checkpoint of this identity past step 0 carries the base loss in its state.
        if cfg["eval_base"] and eval_examples and state["base_eval_loss"] is None:
            if cfg["mode"] != "lora":
                raise ValueError("eval_base needs a LoRA run: only a LoRA starts at the base model")
            state["base_eval_loss"], state["base_example_losses"] = held_out_loss()
            emit("eval", epoch=0, step=0, eval_loss=round(state["base_eval_loss"], 6))

        last_ckpt_step, last_ckpt_time = step, time.time()
        start_step, t0, tokens_done = step, time.time(), 0
        while step < total and not state["stopped"]:
            epoch, k = divmod(step, steps_per_epoch)
            # The same order for an epoch on every run, so a resumed run sees the batches it missed.
            order = torch.randperm(len(examples), generator=torch.Generator().manual_seed(cfg["seed"] * 1000 + epoch))
            batch = [examples[int(j)] for j in order[k * bs : (k + 1) * bs]]
            for g in opt.param_groups:
                g["lr"] = lr_at(step, total, cfg["lr"], cfg["warmup_steps"])
            # Mean over the batch's target tokens, summed a micro-batch at a time: the same gradient
            # as the whole batch at once, with the activations of one micro-batch in memory.
            count = max(sum(targets_in(ex) for ex in batch), 1)
            opt.zero_grad(set_to_none=True)
            parts = micro_batches(batch, micro)
            shares = split_step(parts, len(helpers.processes) + 1 if helpers else 1)  # shares[0] is this process's
            if helpers:
                helpers.start(params, shares[1:], count)
            # The processes with work share the threads while a step runs (a step of one micro-batch
            # has them all); evaluation keeps them all.
            torch.set_num_threads(max(threads // sum(1 for share in shares if share), 1))
            loss_t = accumulate_gradients(model, shares[0], count, bf16)
            torch.set_num_threads(threads)
            if helpers:
                loss_t += helpers.finish(params)
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            loss = float(loss_t)
            step += 1
            if processes > 1 and helpers is None and step == start_step + 1:
                helpers = start_helpers(processes, threads, params, cfg, bf16, model.checkpointing, emit)
            tokens_done += sum(len(ids) for ids, _ in batch)
            avg = state["loss_avg"]
            state["loss_avg"] = loss if avg is None else 0.9 * avg + 0.1 * loss
            elapsed = time.time() - t0
            emit("progress", step=step, total=total, epoch=epoch, loss=round(loss, 5), loss_avg=round(state["loss_avg"], 5),
                 tokens_per_second=round(tokens_done / max(elapsed, 1e-9), 1),
                 eta_seconds=round(elapsed / (step - start_step) * (total - step), 1))
            if early and (step % steps_per_epoch == 0 or step == total):
                evaluate_epoch()
                # A resumed run then neither repeats the evaluation nor loses the best weights.
                save_checkpoint()
                last_ckpt_step, last_ckpt_time = step, time.time()
            if stop["requested"]:
                save_checkpoint()
                emit("cancelled", step=step)
                return
            if step - last_ckpt_step >= cfg["checkpoint_every"] or time.time() - last_ckpt_time >= cfg["checkpoint_seconds"]:
                save_checkpoint()
                last_ckpt_step, last_ckpt_time = step, time.time()

        result = {"steps": step, "final_loss": state["loss_avg"]}
        best = state["best"]
        if early and best is not None:
            with torch.no_grad():
                for p, saved in zip(params, best["params"]):
                    p.copy_(saved)
            result.update(eval_loss=best["loss"], best_epoch=best["epoch"], eval_losses=state["eval_losses"],
                          stopped_early=state["stopped"], eval_example_losses=best.get("example_losses"))
        elif eval_examples:
            result["eval_loss"], result["eval_example_losses"] = held_out_loss()
        if state["base_eval_loss"] is not None:
            result["base_eval_loss"] = state["base_eval_loss"]
            result["base_eval_example_losses"] = state.get("base_example_losses")
        if cfg["mode"] == "lora":
            path = os.path.join(out_dir, "adapter.safetensors")
            lora.save(model, path, cfg["rank"], cfg["alpha"])
            result["adapter"] = path
        else:
            path = os.path.join(out_dir, "weights.safetensors")
            named = dict(zip(gguf_weight_names(model.cfg), weights_in_gguf_order(model)))
            safetensors_io.save(path, named, {"arch": model.cfg.arch})
            result["weights"] = path
        emit("done", **result, peak_mib=round(peak_mib(device), 1))
    finally:
        if on_term is not None:
            signal.signal(signal.SIGTERM, on_term)
        if helpers:
            helpers.close()


def weights_in_gguf_order(model):
    """The model's weights in the order of gguf_weight_names (GGUF layout, float32)."""
    out = [model.tok_embd, model.out_norm] + ([] if model.output is None else [model.output])
    for blk in model.blocks:
        out += [blk.attn_norm, blk.ffn_norm] + [blk.proj[t].weight for t in LORA_TARGETS]
        if model.cfg.arch == "qwen2":
            out += [blk.proj[t].bias for t in ("attn_q", "attn_k", "attn_v")]
    return out
