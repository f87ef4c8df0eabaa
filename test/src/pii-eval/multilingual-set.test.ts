import { expect } from 'chai';
import { COMMON_WORD_GIVEN_NAME_SET, GIVEN_NAME_SET, SURNAME_SET } from '@gateway/privacy/internals';
import { AGENT_PROMPT_MIN_BYTES, generateAgentPrompts } from './agent-prompts.js';
import { HELD_OUT_NAMES, KITS, LANGUAGES } from './languages.js';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { generateMultilingualSet, generateUnseenPhoneSet, generateUnseenSentenceSet, heldOutNames } from './multilingual-set.js';

describe('privacy/eval/multilingual-set', () => {
  it('is deterministic for a seed and labels spans inside the text, without overlaps', () => {
    const a = generateMultilingualSet(5, 40);
    expect(generateMultilingualSet(5, 40)).to.deep.equal(a);
    expect(generateMultilingualSet(6, 40)).to.not.deep.equal(a);
    for (const s of a) {
      const spans = [...s.spans].sort((x, y) => x.start - y.start);
      for (let i = 0; i < spans.length; i++) {
        const span = spans[i];
        if (span === undefined) continue;
        expect(span.start).to.be.at.least(0);
        expect(span.end).to.be.at.most(s.text.length);
        expect(s.text.slice(span.start, span.end).trim()).to.equal(s.text.slice(span.start, span.end));
        if (i > 0) expect(span.start).to.be.at.least(spans[i - 1]?.end ?? 0);
      }
    }
  });

  it('gives every language its names, streets and phones, and only the languages asked for', () => {
    const set = generateMultilingualSet(7, 300);
    for (const lang of LANGUAGES) {
      const types = new Set(set.filter((s) => s.lang === lang).flatMap((s) => s.spans.map((g) => g.type)));
      for (const t of ['PERSON', 'STREET_ADDRESS', 'PHONE', 'EMAIL', 'IBAN', 'DATE_OF_BIRTH'] as const) {
        expect(types.has(t), `${lang} ${t}`).to.equal(true);
      }
    }
    expect(new Set(generateMultilingualSet(7, 10, ['pl', 'nl']).map((s) => s.lang))).to.deep.equal(new Set(['pl', 'nl']));
  });

  it('holds out exactly the names none of whose words the detector knows', () => {
    const known = (w: string): boolean => GIVEN_NAME_SET.has(w) || COMMON_WORD_GIVEN_NAME_SET.has(w) || SURNAME_SET.has(w);
    for (const lang of LANGUAGES) {
      const kept = heldOutNames(lang);
      expect(kept.given.length, lang).to.be.at.least(3);
      expect(kept.surnames.length, lang).to.be.at.least(3);
      for (const [raw, held] of [[HELD_OUT_NAMES[lang].given, kept.given], [HELD_OUT_NAMES[lang].surnames, kept.surnames]] as const) {
        for (const name of raw) {
          const unknown = !name.split(/[ -]/).some(known);
          expect(held.includes(name), `${lang} ${name}`).to.equal(unknown);
        }
      }
    }
  });

  it('puts held-out names and valid national numbers into the unseen sentences, one labelled value a sentence', () => {
    const names = generateUnseenSentenceSet(9, 30, LANGUAGES, 'held-out');
    for (const s of names) {
      const held = heldOutNames(s.lang);
      expect(s.spans.length).to.be.within(1, 2);
      for (const g of s.spans) {
        expect(g.type).to.equal('PERSON');
        const value = s.text.slice(g.start, g.end);
        expect(held.given.some((n) => value.startsWith(`${n} `)) && held.surnames.some((n) => value.endsWith(` ${n}`)), value).to.equal(true);
      }
    }
    for (const s of generateUnseenPhoneSet(9, 30)) {
      expect(s.spans.map((g) => g.type)).to.deep.equal(['PHONE']);
      const g = s.spans[0];
      const digits = s.text.slice(g?.start, g?.end).replace(/[^\d+]/g, '');
      expect(parsePhoneNumberFromString(digits, KITS[s.lang].region)?.isValid(), `${s.lang} ${digits}`).to.equal(true);
    }
    expect(generateUnseenPhoneSet(9, 30)).to.deep.equal(generateUnseenPhoneSet(9, 30));
  });

  it('makes agent prompts of at least 20 KB with labelled values where the text has them', () => {
    const prompts = generateAgentPrompts(3, 4);
    for (const p of prompts) {
      expect(Buffer.byteLength(p.text)).to.be.at.least(AGENT_PROMPT_MIN_BYTES);
      for (const g of p.spans) expect(p.text.slice(g.start, g.end)).to.not.match(/^\s|\s$/);
    }
    expect(prompts.flatMap((p) => p.spans).length).to.be.greaterThan(0);
  });
});
