"""BERT's uncased WordPiece tokenizer (Devlin et al. 2019; the rules of Hugging Face's
BertTokenizer with do_lower_case, which the sentence-embedding model was trained with), so the
trainer needs no tokenizers package to read the embedding model's vocab.txt.

Two passes, as BERT's:
  basic      drop NUL, U+FFFD and control characters; whitespace to spaces; spaces around CJK
             ideographs; lowercase; strip accents (NFD, less combining marks); split at spaces
             and around every punctuation character
  wordpiece  each word, greedily, into the longest pieces the vocabulary has, later pieces
             marked "##"; a word that cannot be covered, or of more than 100 characters, is [UNK]

vocab.txt: one token a line, its id its line number. Shapes: ids(text) -> list[int] of pieces,
without [CLS] and [SEP].
"""
import unicodedata

MAX_WORD_CHARS = 100
UNK, CLS, SEP, PAD = "[UNK]", "[CLS]", "[SEP]", "[PAD]"


def _is_whitespace(ch):
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def _is_control(ch):
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def _is_punctuation(ch):
    cp = ord(ch)
    # BERT counts all non-letter, non-digit ASCII as punctuation ("$", "^", "`"), not only Unicode's P*.
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp):
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


def basic_words(text):
    """The basic pass: lowercase, accent-free words and punctuation marks, in order."""
    out = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or _is_control(ch):
            continue
        if _is_whitespace(ch):
            out.append(" ")
        elif _is_cjk(cp):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    words = []
    for token in "".join(out).split():
        token = "".join(c for c in unicodedata.normalize("NFD", token.lower()) if unicodedata.category(c) != "Mn")
        word = ""
        for ch in token:
            if _is_punctuation(ch):
                if word:
                    words.append(word)
                words.append(ch)
                word = ""
            else:
                word += ch
        if word:
            words.append(word)
    return words


class WordPiece:
    def __init__(self, vocab_path):
        with open(vocab_path, encoding="utf-8") as f:
            self.vocab = {line.rstrip("\n"): i for i, line in enumerate(f)}
        for special in (UNK, CLS, SEP, PAD):
            if special not in self.vocab:
                raise ValueError(f"{vocab_path} has no {special}: not a BERT vocabulary")
        self.unk, self.cls, self.sep, self.pad = (self.vocab[s] for s in (UNK, CLS, SEP, PAD))

    def pieces(self, word):
        """The word's pieces, longest first from the left; [UNK] alone where none covers it."""
        if len(word) > MAX_WORD_CHARS:
            return [UNK]
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    break
                end -= 1
            if end == start:
                return [UNK]
            pieces.append(piece)
            start = end
        return pieces

    def tokens(self, text):
        return [p for w in basic_words(text) for p in self.pieces(w)]

    def ids(self, text):
        return [self.vocab[p] for p in self.tokens(text)]
