"""peft-forward: the base model as Hugging Face transformers holds it, with a PEFT adapter.

transformers keeps llama's q_proj/k_proj rows in their original order and applies RoPE with
rotate_half (pairs (x_i, x_{i+D/2})); llama.cpp's converter permutes those rows so adjacent
pairs rotate instead. Here the base weights are put back in Hugging Face order, RoPE switches
to rotate_half, and the PEFT tensors are applied by their Hugging Face names. If the PEFT
export is right, the logits equal the trainer's with the same adapter.
"""
import json
import os
import re

import numpy as np
import torch

from . import safetensors_io
from .model import load_model

HF_TO_GGUF = {
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}


def unpermute(w, n_head):
    """Inverse of llama.cpp's permute: (H, D/2, 2, ...) rows back to (H, 2, D/2, ...)."""
    rows = w.shape[0]
    return w.reshape(n_head, rows // n_head // 2, 2, *w.shape[1:]).transpose(1, 2).reshape(w.shape)


def run_peft_forward(request, emit):
    model = load_model(request["model"])
    cfg = model.cfg
    if cfg.arch == "llama":
        with torch.no_grad():
            for blk in model.blocks:
                blk.proj["attn_q"].weight.copy_(unpermute(blk.proj["attn_q"].weight, cfg.n_head))
                blk.proj["attn_k"].weight.copy_(unpermute(blk.proj["attn_k"].weight, cfg.n_head_kv))
        cfg.rope_mode = "neox"
    with open(os.path.join(request["peft_dir"], "adapter_config.json")) as f:
        peft = json.load(f)
    tensors, _ = safetensors_io.load(os.path.join(request["peft_dir"], "adapter_model.safetensors"))
    pattern = re.compile(r"^base_model\.model\.model\.layers\.(\d+)\.(\w+\.\w+)\.lora_([AB])\.weight$")
    for name, t in tensors.items():
        m = pattern.match(name)
        if not m:
            raise ValueError(f"unexpected PEFT tensor {name}")
        mod = model.blocks[int(m.group(1))].proj[HF_TO_GGUF[m.group(2)]]
        if mod.lora_a is None:
            mod.add_lora(peft["r"], peft["lora_alpha"])
        with torch.no_grad():
            (mod.lora_a if m.group(3) == "A" else mod.lora_b).copy_(t)
    model.eval()
    with torch.no_grad():
        out = [model(torch.tensor([tokens]))[0].numpy().astype(np.float32) for tokens in request["tokens"]]
    np.concatenate([o.reshape(-1) for o in out]).tofile(request["out"])
    emit("done", sequences=len(out))
