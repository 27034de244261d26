"""Attaching, saving and loading LoRA adapters on the model.

Adapter tensors are named as in GGUF LoRA files: "blk.{i}.{target}.weight.lora_a" with shape
(r, in) and ".lora_b" with shape (out, r), in GGUF's row order (llama's attn_q/attn_k rows are
permuted for RoPE; the PEFT export undoes that).
"""
import torch

from . import safetensors_io
from .model import LORA_TARGETS


def attach(model, rank, alpha, targets, seed=0):
    """Adds LoRA to the targets of every block (on the CPU generator, then moved to the model's device)."""
    unknown = [t for t in targets if t not in LORA_TARGETS]
    if unknown:
        raise ValueError(f"unknown LoRA targets {unknown}; choose from {list(LORA_TARGETS)}")
    g = torch.Generator().manual_seed(seed)
    device = model.tok_embd.device
    for blk in model.blocks:
        for t in targets:
            blk.proj[t].add_lora(rank, alpha, generator=g)
            blk.proj[t].to(device)


def parameters(model):
    """The trainable LoRA weights, in one fixed order: each module's A, then its B."""
    return [p for _, m in model.lora_modules() for p in (m.lora_a, m.lora_b)]


def state(model):
    out = {}
    for name, m in model.lora_modules():
        out[name + ".lora_a"] = m.lora_a.detach().cpu()
        out[name + ".lora_b"] = m.lora_b.detach().cpu()
    return out


def save(model, path, rank, alpha):
    safetensors_io.save(path, state(model), {"rank": rank, "alpha": alpha, "arch": model.cfg.arch})


def load_into(model, path):
    tensors, meta = safetensors_io.load(path)
    rank, alpha = int(meta["rank"]), float(meta["alpha"])
    for i, blk in enumerate(model.blocks):
        for t in LORA_TARGETS:
            a = tensors.get(f"blk.{i}.{t}.weight.lora_a")
            if a is None:
                continue
            m = blk.proj[t]
            m.add_lora(rank, alpha)
            m.to(model.tok_embd.device)
            with torch.no_grad():
                m.lora_a.copy_(a)
                m.lora_b.copy_(tensors[f"blk.{i}.{t}.weight.lora_b"])
    return rank, alpha
