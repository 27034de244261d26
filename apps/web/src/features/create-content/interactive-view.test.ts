import { INTERACTIVE_MESSAGES, type InteractiveState, newInteractiveState } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import {
  addOutlineItem,
  backToEditing,
  copyText,
  failedPartsOf,
  fullPiece,
  interactiveScreen,
  MAX_OUTLINE_ITEMS,
  outlineIsApprovable,
  removeOutlineItem,
  setAnswer,
  setOutlineTitle,
  withAllAnswers,
} from './interactive-view';

const VOICE = 'b'.repeat(24);
const long = (patch: Partial<InteractiveState> = {}): InteractiveState => ({
  ...newInteractiveState('long', 'A guide to sourdough', VOICE),
  ...patch,
});

const SECTIONS = [
  { title: 'Starter', draft: 'Raw one.', rephrased: 'Mine one.', parts: ['Mine one.'], failed: [] },
  { title: 'Baking', draft: 'Raw two.', rephrased: 'Mine two.', parts: ['Mine two.'], failed: [] },
];

describe('interactiveScreen', () => {
  it('shows the start at init or with no session', () => {
    expect(interactiveScreen(null)).toEqual({ kind: 'start' });
    expect(interactiveScreen(long())).toEqual({ kind: 'start' });
  });

  it('shows the outline questions, with the notice when there are none', () => {
    const withQuestions = interactiveScreen(long({ step: 'awaiting_skeleton_answers', skeletonQueries: ['Who?'] }));
    expect(withQuestions).toMatchObject({
      kind: 'questions',
      stage: 'skeleton',
      queries: ['Who?'],
      notice: null,
      submit: 'submit_skeleton_answers',
    });
    const none = interactiveScreen(long({ step: 'awaiting_skeleton_answers' }));
    expect(none).toMatchObject({ kind: 'questions', notice: INTERACTIVE_MESSAGES.noQuestions });
  });

  it('shows the outline, then section questions and drafts with their place', () => {
    const skeletonDraft = [{ title: 'Starter' }, { title: 'Baking' }];
    expect(interactiveScreen(long({ step: 'skeleton_drafted', skeletonDraft }))).toEqual({
      kind: 'outline',
      titles: ['Starter', 'Baking'],
    });
    expect(
      interactiveScreen(long({ step: 'awaiting_section_answers', skeletonDraft, currentSectionIndex: 1 })),
    ).toMatchObject({
      kind: 'questions',
      stage: 'section',
      heading: 'Section 2 of 2: Baking',
      notice: INTERACTIVE_MESSAGES.noQuestions,
      submit: 'submit_section_answers',
    });
    expect(
      interactiveScreen(
        long({ step: 'section_drafted', skeletonDraft, currentDraft: 'Raw', currentRephrased: 'Mine' }),
      ),
    ).toEqual({ kind: 'section', heading: 'Section 1 of 2: Starter', draft: 'Raw', rephrased: 'Mine', isLast: false });
  });

  it('shows the whole piece at complete, with ## headings in long mode only', () => {
    expect(interactiveScreen(long({ step: 'complete', content: SECTIONS }))).toEqual({
      kind: 'complete',
      piece: '## Starter\n\nMine one.\n\n## Baking\n\nMine two.',
    });
    const short: InteractiveState = {
      ...newInteractiveState('short', 'A post', VOICE),
      step: 'complete',
      content: [{ title: 'A post', draft: 'Raw.', rephrased: 'Mine.', parts: ['Mine.'], failed: [] }],
    };
    expect(interactiveScreen(short)).toEqual({ kind: 'complete', piece: 'Mine.' });
    expect(fullPiece(SECTIONS, 'draft')).toBe('## Starter\n\nRaw one.\n\n## Baking\n\nRaw two.');
  });
});

describe('local edits', () => {
  it('sets answers of the questions on screen, one per question', () => {
    const state = long({ step: 'awaiting_skeleton_answers', skeletonQueries: ['Who?', 'Why?'] });
    const answered = setAnswer(state, 1, 'Because');
    expect(answered.skeletonAnswers).toEqual(['', 'Because']);
    expect(setAnswer(state, 5, 'x')).toBe(state);
    const section = long({ step: 'awaiting_section_answers', currentQueries: ['Tone?'] });
    expect(setAnswer(section, 0, 'Warm').currentAnswers).toEqual(['Warm']);
    expect(
      withAllAnswers(long({ step: 'awaiting_section_answers', currentQueries: ['A?', 'B?'] })).currentAnswers,
    ).toEqual(['', '']);
  });

  it('edits the outline: titles, add, remove, approvable', () => {
    let state = long({ step: 'skeleton_drafted', skeletonDraft: [{ title: 'One' }] });
    state = setOutlineTitle(state, 0, 'First');
    state = addOutlineItem(state);
    expect(state.skeletonDraft).toEqual([{ title: 'First' }, { title: '' }]);
    expect(outlineIsApprovable(state)).toBe(false);
    state = removeOutlineItem(state, 1);
    expect(outlineIsApprovable(state)).toBe(true);
    expect(outlineIsApprovable(removeOutlineItem(state, 0))).toBe(false);
    const full = long({ skeletonDraft: Array.from({ length: MAX_OUTLINE_ITEMS }, () => ({ title: 'x' })) });
    expect(addOutlineItem(full)).toBe(full);
  });

  it('goes back from complete to the last section as drafted', () => {
    const done = long({
      step: 'complete',
      skeletonDraft: [{ title: 'Starter' }, { title: 'Baking' }],
      currentSectionIndex: 1,
      content: SECTIONS,
    });
    const back = backToEditing(done);
    expect(back).toMatchObject({
      step: 'section_drafted',
      currentSectionIndex: 1,
      currentDraft: 'Raw two.',
      currentRephrased: 'Mine two.',
      content: [SECTIONS[0]],
    });
    // The piece on screen is the same; copying takes all of it.
    expect(copyText(back)).toBe(copyText(done));
    expect(backToEditing(long())).toEqual(long());
  });

  it('copies nothing before a section is drafted', () => {
    expect(copyText(null)).toBe('');
    expect(copyText(long({ step: 'skeleton_drafted' }))).toBe('');
  });

  it('counts the parts that did not come out in the Voice, and copies nothing while any did not', () => {
    const failedFirst = { ...SECTIONS[0], parts: ['Raw one.'], failed: [0] } as (typeof SECTIONS)[0];
    const drafted = long({
      step: 'section_drafted',
      skeletonDraft: [{ title: 'Starter' }, { title: 'Baking' }],
      currentSectionIndex: 1,
      currentRephrased: 'Mine two. Raw three.',
      currentParts: ['Mine two.', ' Raw three.'],
      currentFailed: [1],
      content: [failedFirst],
    });
    expect(failedPartsOf(drafted)).toEqual({ failed: 2, total: 3, none: false });
    expect(copyText(drafted)).toBe('');
    const done = long({ step: 'complete', content: [failedFirst] });
    expect(failedPartsOf(done)).toEqual({ failed: 1, total: 1, none: true });
    expect(copyText(done)).toBe('');
    expect(failedPartsOf(long({ step: 'complete', content: SECTIONS }))).toEqual({ failed: 0, total: 2, none: false });
  });
});
