// English function words for stylometry: words that carry grammar rather than topic, so how
// often a writer uses them says more about the writer than about the subject (Mosteller and
// Wallace 1964; Burrows 2002). Lowercase; contractions are left out (they are tokens of their own).
// The archaic group is the same grammar in older English (thou for you, hath for has, unto for to):
// without it the measure is blind to how a writer like the King James Bible differs most from
// modern prose, and to a Voice that learns it.

const GROUPS = {
  determiners: `
    a an the this that these those some any each every no all both either neither another such what
    which whose much many more most few several other own same
  `,
  pronouns: `
    i me my mine myself we us our ours ourselves you your yours yourself he him his himself she her
    hers herself it its itself they them their theirs themselves who whom one nothing something
    anything everything
  `,
  prepositions: `
    about above across after against along among around at before behind below beneath beside
    between beyond by down during for from in inside into near of off on onto out over through
    throughout to toward towards under until up upon with within without
  `,
  conjunctions: `
    and but or nor so yet because although though while whereas if unless since as than whether when
    where then therefore however thus
  `,
  auxiliaries: `
    be is am are was were been being have has had having do does did will would shall should can
    could may might must ought
  `,
  adverbs: `
    not very too also only just even still now here there again ever never always often how why
  `,
  archaic: `
    thou thee thy thine ye hath hast doth dost didst shalt wilt unto wherefore whither thence
  `,
};

export const FUNCTION_WORDS: readonly string[] = Object.values(GROUPS).flatMap((g) => g.trim().split(/\s+/));
