import { describe, expect, it } from 'vitest';
import { FUNCTION_WORDS } from './function-words.js';
import { burrowsDelta, type FunctionWordProfile, functionWordProfile, styleSimilarity } from './stylometry.js';

// Two writers, each in two halves: archaic scriptural narrative and modern technical instructions.
const ARCHAIC = [
  `And it came to pass in those days that there went out a man of the hill country, and he took
with him his sons and the wives of his sons, and all that he had. And they journeyed toward the
river, and they pitched their tents upon the plain, for the land was good in their eyes. And the
man said unto his sons, Behold, this is the place of which our fathers spake; let us dwell here,
and let us build an altar of stone, that our children may know it when we are gone.`,
  `And his sons did as he had commanded them, and they gathered the stones of the field, and they
laid them one upon another. And when the altar was finished, the man went up upon it, and he
lifted up his voice and wept, for he remembered the days of his youth and the house of his father.
And his sons were afraid, and they said one to another, What is this that our father hath done?`,
  `Then the eldest of his sons arose and went unto him, and said, My father, wherefore weepest thou?
Is not the land before us, and are not the flocks and the herds with us? And the man answered and
said unto him, My son, the land is good, and the flocks are many; but I am old, and the days of my
life are few, and I shall not see the harvest of this place. And he blessed his sons, every one of
them, and he laid his hands upon their heads, and he gave unto them the land for an inheritance.`,
  `And it was so, that after these things the man died in a good old age, and his sons buried him
by the altar which they had built. And they mourned for him seven days, and all the people of the
plain came unto them, and they brought bread and wine, and they sat with them upon the ground. And
the name of that place was called the stone of weeping unto this day, for there the man wept.`,
];
const TECHNICAL = [
  `Before you install the agent, check that your server meets the minimum requirements: a 64-bit
operating system, at least 2 GB of free memory, and outbound access on port 443. If you are
running an older kernel, you should upgrade it first, because some features depend on recent
system calls. You can verify the version with a single command, which prints a short summary.`,
  `To configure the agent, create a file called config.yaml in the installation directory. The
file uses a simple key-value format; each setting is optional, but you will usually want to set
the API key and the log level. When a setting is missing, the agent falls back to a sensible
default, which is documented in the reference section below. Keep the file readable only by the
service account, since it contains credentials.`,
  `Once the configuration is in place, start the service and watch the log output for a few
seconds. A healthy agent reports its version, the number of collectors it has loaded, and the
address it is sending data to. If you see a connection error, check your firewall rules and make
sure the endpoint is reachable from this machine. Most problems at this stage are caused by a
proxy that blocks outbound traffic or by a typo in the API key.`,
  `Finally, consider enabling automatic updates. The agent can check for new releases once a day
and apply them during a maintenance window you define. This keeps your fleet on a supported
version without manual work, but you should test each release in a staging environment first if
your environment is regulated or if you rely on custom collectors.`,
];
const half = (paragraphs: string[], i: 0 | 1) => paragraphs.slice(i * 2, i * 2 + 2).join('\n\n');
const A1 = half(ARCHAIC, 0);
const A2 = half(ARCHAIC, 1);
const T1 = half(TECHNICAL, 0);
const T2 = half(TECHNICAL, 1);

describe('function word profiles', () => {
  it('count function words case-insensitively as shares of all words', () => {
    const p = functionWordProfile("The cat and THE dog; it's the end.");
    expect(p.words).toBe(8);
    expect(p.frequencies.the).toBeCloseTo(3 / 8);
    expect(p.frequencies.and).toBeCloseTo(1 / 8);
    expect(p.frequencies.of).toBe(0);
    expect(Object.keys(p.frequencies)).toHaveLength(FUNCTION_WORDS.length);
  });

  it('has about 150 distinct lowercase words', () => {
    expect(new Set(FUNCTION_WORDS).size).toBe(FUNCTION_WORDS.length);
    expect(FUNCTION_WORDS.length).toBeGreaterThanOrEqual(140);
    for (const w of FUNCTION_WORDS) expect(w).toMatch(/^[a-z]+$/);
  });

  it('counts the older forms of the same grammar, so a move into them is seen', () => {
    const p = functionWordProfile('Thou hast done it unto me, and ye shall see what thy father hath.');
    for (const w of ['thou', 'hast', 'unto', 'ye', 'thy', 'hath']) expect(p.frequencies[w], w).toBeCloseTo(1 / 14);
    const modern = 'You have done it to me, and you will see what your father has.';
    const older = 'Thou hast done it unto me, and ye shall see what thy father hath.';
    expect(burrowsDelta(older, A1, [A1, A2, T1, T2])).toBeLessThan(burrowsDelta(modern, A1, [A1, A2, T1, T2]));
  });

  it('is all zeros for text without words', () => {
    const p = functionWordProfile('  123 … ');
    expect(p.words).toBe(0);
    expect(Object.values(p.frequencies).every((f) => f === 0)).toBe(true);
  });
});

describe("Burrows' Delta", () => {
  const refs = [A1, A2, T1, T2];

  it('puts each half nearer its own other half than either half of the other writer', () => {
    const same = [burrowsDelta(A1, A2, refs), burrowsDelta(T1, T2, refs)];
    const cross = [
      burrowsDelta(A1, T1, refs),
      burrowsDelta(A1, T2, refs),
      burrowsDelta(A2, T1, refs),
      burrowsDelta(A2, T2, refs),
    ];
    for (const s of same) for (const c of cross) expect(s).toBeLessThan(c);
    expect(styleSimilarity(Math.max(...same))).toBeGreaterThan(styleSimilarity(Math.min(...cross)));
  });

  it('is zero for a text against itself, symmetric, and accepts precomputed profiles', () => {
    expect(burrowsDelta(A1, A1, refs)).toBe(0);
    expect(burrowsDelta(A1, T1, refs)).toBeCloseTo(burrowsDelta(T1, A1, refs), 12);
    const profiles = refs.map(functionWordProfile);
    const [pa, , pt] = profiles as [FunctionWordProfile, FunctionWordProfile, FunctionWordProfile];
    expect(burrowsDelta(pa, pt, profiles)).toBeCloseTo(burrowsDelta(A1, T1, refs), 12);
  });

  it('maps Delta to a similarity from 1 down towards 0', () => {
    expect(styleSimilarity(0)).toBe(1);
    expect(styleSimilarity(1)).toBe(0.5);
    expect(styleSimilarity(2)).toBeCloseTo(0.2);
    expect(() => styleSimilarity(-1)).toThrow(RangeError);
    expect(() => styleSimilarity(Number.NaN)).toThrow(RangeError);
  });
});
