import { expect } from 'chai';
import { NOTE_CAP, capNote, noteAge, parseLabels } from '@mira/plugin-notes';

describe('capNote()', () => {
  it('keeps text within the cap exactly as written, only trimmed', () => {
    expect(capNote('  Alice   likes tea ')).to.deep.equal({ content: 'Alice   likes tea', cut: '' });
    expect(capNote('20 m² ﬁle ＡＢＣ ①')).to.deep.equal({ content: '20 m² ﬁle ＡＢＣ ①', cut: '' });
  });

  it('trims over-cap text at the last word boundary and returns the cut part', () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const { content, cut } = capNote(words);
    expect([...content].length).to.be.at.most(NOTE_CAP);
    expect(content.endsWith(' ')).to.equal(false);
    expect(words.startsWith(content)).to.equal(true);
    expect(`${content} ${cut}`).to.equal(words);
    expect(content.split(' ').every((w) => /^word\d+$/.test(w))).to.equal(true);
  });

  it('cuts at the cap when the text has no spaces', () => {
    const { content, cut } = capNote('x'.repeat(600));
    expect(content).to.have.length(NOTE_CAP);
    expect(cut).to.have.length(88);
  });

  it('counts characters, not UTF-16 units or bytes, and never splits a character', () => {
    const emoji = '🙂'.repeat(600);
    const { content, cut } = capNote(emoji);
    expect([...content]).to.have.length(NOTE_CAP);
    expect([...cut]).to.have.length(88);
    // Each of these Han characters is a word as ICU segments them: the cut falls at the cap.
    const cjk = '猫'.repeat(300) + ' ' + '犬'.repeat(300);
    const trimmed = capNote(cjk);
    expect(trimmed.content).to.equal('猫'.repeat(300) + ' ' + '犬'.repeat(211));
    expect(trimmed.cut).to.equal('犬'.repeat(89));
  });

  it('cuts at a word boundary as Intl.Segmenter finds it, never inside a grapheme cluster', () => {
    // A family emoji is one grapheme of seven code points: kept whole or cut whole.
    const family = '👨‍👩‍👧‍👦';
    const emoji = capNote(`${'a'.repeat(508)} ${family} after`);
    expect(emoji.content).to.equal('a'.repeat(508));
    expect(emoji.cut).to.equal(`${family} after`);
    // A decomposed é (e + U+0301) never loses its accent to the cut.
    const decomposed = capNote('e\u0301'.repeat(300));
    expect(decomposed.content.endsWith('e\u0301')).to.equal(true);
    expect(decomposed.cut.startsWith('\u0301')).to.equal(false);
    expect([...decomposed.content].length).to.equal(512);
    // Chinese is cut between dictionary words, not inside 红茶.
    const tea = capNote(`${'我'.repeat(511)}红茶很好`);
    expect(tea.content).to.equal('我'.repeat(511));
    expect(tea.cut).to.equal('红茶很好');
  });

  it('shows at most 512 characters of what was cut, and counts the rest', () => {
    const { content, cut } = capNote(`${'word '.repeat(102)}${'x'.repeat(100_000)}`);
    expect([...content].length).to.be.at.most(512);
    expect(cut).to.match(/… \(\d+ more characters\)$/);
    expect([...cut.replace(/… \(\d+ more characters\)$/, '')].length).to.be.at.most(512);
    const more = Number(/\((\d+) more/.exec(cut)![1]);
    expect(more + 512).to.equal(100_000 + [...'word '.repeat(102)].length - [...content].length - 1);
  });
});

describe('parseLabels()', () => {
  it('splits on commas, normalises, and drops repeats', () => {
    expect(parseLabels(' Preference, TEA ,preference,, self ')).to.deep.equal(['preference', 'tea', 'self']);
    expect(parseLabels(null)).to.deep.equal([]);
  });
  it('refuses over-long labels and too many labels', () => {
    expect(() => parseLabels('x'.repeat(41))).to.throw(/MIRA_ERR_NOTES_LABEL_INVALID/);
    expect(() => parseLabels('a,b,c,d,e,f,g,h,i')).to.throw(/MIRA_ERR_NOTES_LABEL_INVALID/);
  });
});

describe('noteAge()', () => {
  const now = new Date('2026-06-10T12:00:00.000Z');
  it('says minutes, hours and days for a week, then the calendar day', () => {
    expect(noteAge('2026-06-10T11:59:30.000Z', now)).to.equal('just now');
    expect(noteAge('2026-06-10T11:15:00.000Z', now)).to.equal('45m ago');
    expect(noteAge('2026-06-10T02:00:00.000Z', now)).to.equal('10h ago');
    expect(noteAge('2026-06-07T12:00:00.000Z', now)).to.equal('3d ago');
    expect(noteAge('2026-06-01T08:00:00.000Z', now)).to.equal('2026-06-01');
  });
});
