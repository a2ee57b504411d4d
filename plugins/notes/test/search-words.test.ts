import { expect } from 'chai';
import { FUNCTION_WORDS, searchWords } from '../src/text.js';

describe('searchWords()', () => {
  it('leaves out question words and function words, keeping the words a note would hold, in order', () => {
    expect(searchWords('where did we put the spare bulbs?')).to.deep.equal(['put', 'spare', 'bulbs']);
    expect(searchWords('how do I reset the router')).to.deep.equal(['reset', 'router']);
    expect(searchWords('when does Biscuit get fed?')).to.deep.equal(['Biscuit', 'get', 'fed']);
    expect(searchWords('Who is our GP')).to.deep.equal(['GP']);
    expect(searchWords('WHAT SHOULD THE THERMOSTAT BE SET TO AT NIGHT')).to.deep.equal(['THERMOSTAT', 'SET', 'NIGHT']);
  });

  it('takes clitics off their word, so a lone "s" or "t" never matches every possessive', () => {
    expect(searchWords("Where's Tom's spare inhaler?")).to.deep.equal(['Tom', 'spare', 'inhaler']);
    expect(searchWords('what’s the vet’s number')).to.deep.equal(['vet', 'number']);
    expect(searchWords("they're here, we'll go, I've seen, I'd say, I'm in")).to.deep.equal(['go', 'seen', 'say']);
    expect(searchWords("Tom's parents' evening")).to.deep.equal(['Tom', 'parents', 'evening']);
  });

  it('reads a negation as its verb and "not", both function words', () => {
    expect(searchWords("what doesn't Tom like on pizza")).to.deep.equal(['Tom', 'like', 'pizza']);
    expect(searchWords("what can't Biscuit eat")).to.deep.equal(['Biscuit', 'eat']);
    expect(searchWords("won't, shan't, don't, isn't, aren't")).to.deep.equal([]);
  });

  it('leaves out the quantity word of "how much / many / often / long", and only after "how"', () => {
    expect(searchWords('how often should I water the basil')).to.deep.equal(['water', 'basil']);
    expect(searchWords('How much do we pay the window cleaner')).to.deep.equal(['pay', 'window', 'cleaner']);
    expect(searchWords('how many scoops, how long to boil')).to.deep.equal(['scoops', 'boil']);
    expect(searchWords('long hair, many thanks')).to.deep.equal(['long', 'hair', 'many', 'thanks']);
  });

  it('keeps numbers, other apostrophes, other scripts and emoji as before', () => {
    expect(searchWords('how do I get the TV to HDMI 2')).to.deep.equal(['get', 'TV', 'HDMI', '2']);
    expect(searchWords("o'clock")).to.deep.equal(['o', 'clock']);
    expect(searchWords('充电座在沙发后面')).to.deep.equal(['充电', '座', '在', '沙发', '后面']);
    expect(searchWords('커피를 ☕')).to.deep.equal(['커피를', 'emoji002615']);
    expect(searchWords('ＡＢＣ café')).to.deep.equal(['ABC', 'café']);
  });

  it('gives nothing for a query of function words alone', () => {
    expect(searchWords('is it the')).to.deep.equal([]);
    expect(searchWords("where's what?")).to.deep.equal([]);
    expect(searchWords('')).to.deep.equal([]);
  });

  it('holds lower-case English function words only', () => {
    for (const word of FUNCTION_WORDS) expect(word).to.match(/^[a-z]+$/);
    for (const word of ['where', 'did', 'we', 'the', 'does', 'how', 'do', 'i', 'should', 'under']) {
      expect(FUNCTION_WORDS.has(word), word).to.equal(true);
    }
  });
});
