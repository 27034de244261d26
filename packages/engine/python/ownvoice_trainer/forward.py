"""forward: logits for token sequences, written as float32 (sequence, position, vocab)."""
import numpy as np
import torch

from . import lora
from .model import load_model


def run_forward(request, emit):
    model = load_model(request["model"])
    if request.get("adapter"):
        lora.load_into(model, request["adapter"])
    model.eval()
    out = []
    with torch.no_grad():
        for tokens in request["tokens"]:
            idx = torch.tensor([tokens], dtype=torch.long)
            out.append(model(idx)[0].numpy().astype(np.float32))
    np.concatenate([o.reshape(-1) for o in out]).tofile(request["out"])
    emit("done", sequences=len(out), vocab=model.cfg.n_vocab)
