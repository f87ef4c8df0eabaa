import { expect } from 'chai';
import { detectAll } from '../../src/index.js';

// The whole request's second pass (later-mentions.ts), through the detector, per language: a person named in full
// (or at a sure margin) is found again later, alone or in another grammatical case, in the same text or in another
// text of the same request; and what is not that person stays unflagged: a place, a company, a capitalised noun or a
// work sharing the name, and every other use of a lone common first name ("Will", "Mark").
interface Case {
  /** The texts of one request, in order. */
  texts: string[];
  /** PERSON values found, per text. */
  people: string[][];
}

const people = (texts: string[]): string[][] => detectAll(texts).map((fs) => fs.filter((f) => f.type === 'PERSON').map((f) => f.value));

const FOUND: Record<string, Case[]> = {
  en: [
    { texts: ['Anna Kowalska joined the board in March. Later that week Kowalska said the audit was clean.'], people: [['Anna Kowalska', 'Kowalska']] },
    { texts: ['Please forward this to Margaret Thornbury.', 'Thornbury says the invoice is late.'], people: [['Margaret Thornbury'], ['Thornbury']] },
  ],
  de: [
    { texts: ['Gestern traf Werner Emde den Bürgermeister.', 'Danach sagte Emde, er sei zufrieden. Emdes Haltung überraschte.'], people: [['Werner Emde'], ['Emde', 'Emdes']] },
  ],
  fr: [
    { texts: ['Hier, Camille Lefèvre a rencontré le maire.', 'Selon Lefèvre, le projet avance. Lefèvre a ajouté que tout va bien.'], people: [['Camille Lefèvre'], ['Lefèvre', 'Lefèvre']] },
  ],
  es: [
    { texts: ['Ayer, Lucía Etxeberria habló con el alcalde.', 'Según Etxeberria, el plan sigue adelante.'], people: [['Lucía Etxeberria'], ['Etxeberria']] },
  ],
  it: [
    { texts: ['Ieri Giulia Bertolucci ha incontrato il sindaco.', 'Secondo Bertolucci, il progetto è pronto.'], people: [['Giulia Bertolucci'], ['Bertolucci']] },
  ],
  nl: [
    { texts: ['Gisteren sprak Pieter Huisman met de burgemeester.', 'Volgens Huisman gaat het goed. Huisman zei dat niet.'], people: [['Pieter Huisman'], ['Huisman', 'Huisman']] },
  ],
  pl: [
    { texts: ['Wczoraj przyjechała Anna Kowalska.', 'Rozmawiałem z Kowalską o projekcie. Kowalskiej nie było w biurze.'], people: [['Anna Kowalska'], ['Kowalską', 'Kowalskiej']] },
    { texts: ['Jan Kowalczyk przyjechał rano.', 'Spotkałem się z Kowalczykiem wczoraj. Kowalczyka nie było.'], people: [['Jan Kowalczyk'], ['Kowalczykiem', 'Kowalczyka']] },
  ],
};

const NOT_FOUND: Record<string, Case[]> = {
  en: [
    { texts: ['Jack London wrote the novel.', 'We flew to London on Monday; the London office agreed.'], people: [['Jack London'], []] },
    { texts: ['Henry Ford founded it.', 'Ford Motor Company reported profits; Ford Motor shares rose.'], people: [['Henry Ford'], []] },
    { texts: ['Mary Shelley wrote it in 1818.', 'Frankenstein is still read; the novel Frankenstein sold well.'], people: [['Mary Shelley'], []] },
    { texts: ['Will Hendricks called about the invoice.', 'Will you send it today? Will it rain? We will see.'], people: [['Will Hendricks'], []] },
    { texts: ['Mark Dobson reviewed the patch.', 'Mark the ticket as done and Mark every item.'], people: [['Mark Dobson'], []] },
  ],
  de: [
    { texts: ['Hans Berlin kam spät.', 'Wir fahren nach Berlin. In Berlin regnet es.'], people: [['Hans Berlin'], []] },
    { texts: ['Anna Fischer kam spät.', 'Die Fischer auf dem Main fuhren früh aus. Der Fischer lachte.'], people: [['Anna Fischer'], []] },
    { texts: ['Klaus Siemens rief an.', 'Die Siemens AG meldet Gewinne; bei Siemens Energy läuft es.'], people: [['Klaus Siemens'], []] },
    { texts: ['Thomas Mann schrieb den Zauberberg.', 'Mann und Frau kamen. Ein Mann lachte.'], people: [['Thomas Mann'], []] },
  ],
  fr: [
    { texts: ['Paul Lyon est arrivé.', 'Nous allons à Lyon. La ville de Lyon est belle.'], people: [['Paul Lyon'], []] },
    { texts: ['Louis Renault a fondé la société.', 'La Renault Clio se vend bien; le groupe Renault recrute.'], people: [['Louis Renault'], []] },
  ],
  es: [
    { texts: ['Juan Toledo llegó tarde.', 'Viajamos a Toledo. En Toledo hace calor.'], people: [['Juan Toledo'], []] },
    { texts: ['Pedro Mapfre llamó.', 'La empresa Mapfre subió; Mapfre S.A. crece.'], people: [['Pedro Mapfre'], []] },
  ],
  it: [
    { texts: ['Marco Milano è arrivato.', 'Andiamo a Milano. A Milano piove.'], people: [['Marco Milano'], []] },
    { texts: ['Paolo Barilla ha parlato.', 'La Barilla S.p.A. cresce; il gruppo Barilla assume.'], people: [['Paolo Barilla'], []] },
  ],
  nl: [
    { texts: ['Jan Utrecht kwam laat.', 'We gaan naar Utrecht. In Utrecht regent het.'], people: [['Jan Utrecht'], []] },
    { texts: ['Kees Visser kwam.', 'De visser ving vis. Het Visser-rapport is klaar.'], people: [['Kees Visser'], []] },
  ],
  pl: [
    { texts: ['Adam Warszawski mieszka w Krakowie.', 'Warszawa jest stolicą. Jadę do Warszawy.'], people: [['Adam Warszawski'], []] },
    { texts: ['Piotr Orlen dzwonił.', 'PKN Orlen podnosi ceny; stacja Orlen jest zamknięta.'], people: [['Piotr Orlen'], []] },
  ],
};

describe('privacy: the whole request\'s second pass, per language', () => {
  for (const lang of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl']) {
    it(`${lang}: finds a person's later mentions, alone or inflected, in the same text and in the others`, () => {
      for (const c of FOUND[lang] ?? []) expect(people(c.texts), c.texts.join(' | ')).to.deep.equal(c.people);
    });
    it(`${lang}: leaves places, companies, capitalised nouns, works and a lone common first name`, () => {
      for (const c of NOT_FOUND[lang] ?? []) expect(people(c.texts), c.texts.join(' | ')).to.deep.equal(c.people);
    });
  }
});
